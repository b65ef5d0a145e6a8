internal import Foundation
internal import Vips

extension BuildEngine {
  /// Stage 6: records the run. Assembles the new manifest (fresh entries, up-to-date ones,
  /// and the old entries of imagesets not rendered this run), writes the group folders, then
  /// the manifest last, clears the pending list, and updates the accessors and caches.
  func commit(
    _ decision: Staleness.Outcome, rendered: [JobOutcome], previous: PreviousBuild,
    state: PreviousState, found: SourceDiscovery.Result, writer: CatalogWriter
  ) throws -> Manifest {
    let (entries, writtenFolders) = Self.entries(
      decision, rendered: rendered, previous: previous.imageSets)
    let groups = try writer.writeGroupFolders(
      of: entries, previousGroups: Set(previous.manifest?.groups ?? []),
      pendingAtStart: state.pendingAtStart, pending: state.pending)
    let manifest = Manifest(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, configHash: configHash,
      catalog: workspace.catalogRelativeToManifest, groups: Array(groups), imageSets: entries)
    try writeManifest(manifest, previous: previous)
    state.pending.clear()
    if let swiftFile = workspace.swiftFile {
      try SwiftAccessorGenerator.write(
        manifest, providesNamespace: workspace.config.providesNamespace, to: swiftFile)
    }
    updateProbeCache(
      state.probeCache.value(), sources: found.cache, stamps: decision.stamps,
      manifest: manifest, written: writtenFolders)
    return manifest
  }

  /// Writes one picture of every output of the catalog, labelled; a failure is a problem of
  /// the run, not an error that stops it.
  func writeContactSheet(of manifest: Manifest, to url: URL) -> [Problem] {
    do {
      try ContactSheet.write(manifest: manifest, catalog: workspace.catalog, to: url)
      return []
    } catch {
      return [Problem(path: url.path, reason: "cannot write the contact sheet: \(error)")]
    }
  }

  /// The manifest entries after a run: up-to-date and kept entries, the old entries of
  /// imagesets that were to be rendered but failed, replaced by those written this run; and
  /// the folders written.
  static func entries(
    _ decision: Staleness.Outcome, rendered: [JobOutcome], previous: [String: ManifestImageSet]
  ) -> (entries: [ManifestImageSet], written: Set<String>) {
    var entries: [String: ManifestImageSet] = [:]
    for item in decision.upToDate { entries[item.set.folder] = item.entry }
    for entry in decision.kept { entries[entry.folder] = entry }
    for item in decision.toRender {
      if let old = previous[item.set.folder] { entries[item.set.folder] = old }
    }
    var written = Set<String>()
    for entry in rendered.flatMap(\.entries) {
      entries[entry.folder] = entry
      written.insert(entry.folder)
    }
    return (Array(entries.values), written)
  }

  /// Writes the manifest when it changed (or is missing), and its cache when that is stale.
  private func writeManifest(_ manifest: Manifest, previous: PreviousBuild) throws {
    // The manifest file's facts to record in a new manifest cache (nil: the cache is current).
    var cacheFacts = previous.staleCacheFacts
    if manifest != previous.manifest
      || !FileManager.default.fileExists(atPath: workspace.manifest.path)
    {
      try ManifestStore.write(manifest, to: workspace.manifest)
      cacheFacts = FileFacts.current(at: workspace.manifest.path)
    }
    if let cacheFacts {
      try? ManifestCache.write(manifest, to: workspace.manifestCache, facts: cacheFacts)
    }
  }

  /// Saves the probe results and the stamps of the catalog's files for the next run.
  ///
  /// Stamps taken before rendering describe the files this run replaced: imagesets written
  /// now are stamped afresh (with the hashes of the bytes just written), so the next run
  /// does not hash them again.
  private func updateProbeCache(
    _ original: ProbeCache, sources: [String: ProbeResult], stamps: [String: FileStamp],
    manifest: Manifest, written: Set<String>
  ) {
    var cache = original
    cache.sources = sources
    cache.outputs = stamps
    func stamp(_ path: String, hash: String, fresh: Bool) {
      guard fresh || cache.outputs[path] == nil,
        let stat = FileStamp.current(at: workspace.catalog.appendingPathComponent(path).path)
      else { return }
      cache.outputs[path] = FileStamp(byteSize: stat.byteSize, modified: stat.modified, hash: hash)
    }
    for entry in manifest.imageSets {
      let fresh = written.contains(entry.folder)
      for output in entry.outputs { stamp(output.path, hash: output.hash, fresh: fresh) }
      stamp(entry.folder + "/Contents.json", hash: entry.contentsHash, fresh: fresh)
    }
    if cache != original { try? cache.write(to: workspace.probeCache) }
    try? FileManager.default.removeItem(at: workspace.legacyProbeCache)
  }
}
