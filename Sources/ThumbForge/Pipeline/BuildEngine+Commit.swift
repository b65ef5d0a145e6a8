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
    var entries: [String: ManifestImageSet] = [:]
    for item in decision.upToDate { entries[item.set.folder] = item.entry }
    for entry in decision.kept { entries[entry.folder] = entry }
    for item in decision.toRender {
      if let old = previous.imageSets[item.set.folder] { entries[item.set.folder] = old }
    }
    var writtenFolders = Set<String>()
    for entry in rendered.flatMap(\.entries) {
      entries[entry.folder] = entry
      writtenFolders.insert(entry.folder)
    }
    let groups = try writeGroupFolders(
      of: Array(entries.values), previous: previous, state: state, writer: writer)
    let manifest = Manifest(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, configHash: configHash,
      catalog: workspace.catalogRelativeToManifest, groups: Array(groups),
      imageSets: Array(entries.values))
    try writeManifest(manifest, previous: previous)
    state.pending.clear()
    if let swiftFile = workspace.swiftFile {
      try writeAccessors(manifest, to: swiftFile)
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

  /// Writes the catalog's root and group `Contents.json` files ThumbForge owns and removes
  /// those of groups no longer used; returns the groups to record as owned.
  private func writeGroupFolders(
    of entries: [ManifestImageSet], previous: PreviousBuild, state: PreviousState,
    writer: CatalogWriter
  ) throws -> Set<String> {
    let groups = Set(entries.map(\.group).filter { !$0.isEmpty })
    let used = Set(
      groups.flatMap { group in (1...group.count).map { group.prefix($0).joined(separator: "/") } })
    // Group folders are written after the imagesets and before the manifest: record the
    // new ones first, so a run killed in between still knows them as its own next time.
    let owned = Set(previous.manifest?.groups ?? []).union(state.pendingAtStart.intersection(used))
    let new = used.filter {
      !FileManager.default.fileExists(
        atPath: workspace.catalog.appendingPathComponent($0 + "/Contents.json").path)
    }
    try state.pending.write(new)
    let written = try writer.writeFolders(groups: groups, owned: owned)
    writer.removeGroups(owned.subtracting(used))
    return written.union(owned.intersection(used))
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
