internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

extension BuildEngine {
  /// Stage 6 for the catalog: records the run with the ``RunRecorder`` (fresh entries,
  /// up-to-date ones, and the old entries of imagesets not rendered this run), and updates the
  /// probe cache.
  func commit(
    _ decision: Staleness.Outcome, rendered: [JobOutcome], previous: PreviousBuild,
    state: PreviousState, found: SourceDiscovery.Result, writer: CatalogWriter
  ) throws -> Manifest {
    let (entries, writtenFolders) = Self.entries(
      decision, rendered: rendered, previous: previous.imageSets)
    let failed = Self.failures(rendered, kept: decision.keptFailures)
    let recorder = RunRecorder(
      state: workspace.state, previous: previous.recorded, groups: writer, keepsCache: true,
      accessors: workspace.swiftFile.map {
        SwiftAccessorTarget(
          file: $0, providesNamespace: workspace.config.providesNamespace,
          options: workspace.config.swiftAccessors, catalog: workspace.catalog)
      })
    // The probe cache records what this run found and wrote, whatever happens from here.
    defer {
      updateProbeCache(
        state.probeCache, found: found, decision: decision,
        entries: entries, written: writtenFolders,
        stamps: rendered.reduce(into: [:]) { $0.merge($1.stamps) { _, later in later } })
    }
    return try recorder.record(
      entries, unchangedEntries: writtenFolders.isEmpty, pending: state.pending,
      pendingAtStart: state.pendingAtStart
    ) { groups in
      recorded(
        entries, groups: groups, catalog: workspace.catalogRelativeToManifest, failed: failed)
    }
  }

  /// The manifest this run records for `entries`: the one place where a build, a shard's
  /// part and `check`'s expectation assemble it, so that they cannot differ. It records the
  /// settings of the recipes the entries name and the other key settings, for `check` to
  /// name what changed.
  func recorded(
    _ entries: [ManifestImageSet], groups: [String], catalog: String, failed: [ManifestFailure]?
  ) -> Manifest {
    var manifest = Manifest(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, configHash: configHash,
      catalog: catalog, groups: groups, imageSets: entries)
    manifest.failed = failed
    let names = Set(entries.map(\.recipe))
    let recipes = workspace.config.recipes.filter { names.contains($0.key) }.mapValues(\.settings)
    manifest.recipes = recipes.isEmpty ? nil : recipes
    manifest.settings = workspace.config.keySettings
    return manifest
  }

  /// The masters this run failed to render and the earlier failures of those it did not
  /// try, once each, sorted (nil: none).
  static func failures(_ rendered: [JobOutcome], kept: [ManifestFailure] = [])
    -> [ManifestFailure]?
  {
    let problems = Set(
      rendered.flatMap(\.problems).map { ManifestFailure(path: $0.path, reason: $0.reason) }
        + kept)
    return problems.isEmpty ? nil : problems.sorted()
  }

  /// Writes one picture of every output of the catalog, labelled; a failure is a problem of
  /// the run, not an error that stops it.
  func writeContactSheet(of manifest: Manifest, to url: URL) -> [Problem] {
    do {
      try ContactSheet.write(
        manifest: manifest, catalog: workspace.catalog, base: workspace.state.folder, to: url)
      return []
    } catch {
      return [Problem(path: url.path, reason: "cannot write the contact sheet: \(error)")]
    }
  }

  /// The manifest entries after a run: up-to-date and kept entries, and for each imageset
  /// that was to be rendered, the entry written this run or else (it failed) the old one;
  /// and the folders written.
  static func entries(
    _ decision: Staleness.Outcome, rendered: [JobOutcome], previous: [String: ManifestImageSet]
  ) -> (entries: [ManifestImageSet], written: Set<String>) {
    var fresh: [String: ManifestImageSet] = [:]
    for entry in rendered.lazy.flatMap(\.entries) { fresh[entry.folder] = entry }
    var entries: [ManifestImageSet] = []
    entries.reserveCapacity(decision.upToDate.count + decision.kept.count + decision.toRender.count)
    entries += decision.upToDate.lazy.map(\.entry)
    entries += decision.kept
    for item in decision.toRender {
      if let entry = fresh[item.set.folder] ?? previous[item.set.folder] { entries.append(entry) }
    }
    return (entries, Set(fresh.keys))
  }

  /// Saves the probe results and the stamps of the files the manifest lists (the catalog's
  /// and its destinations') for the next run, when they changed.
  ///
  /// Stamps taken before rendering describe the files this run replaced: imagesets written
  /// now are stamped afresh (with the hashes of the bytes just written), so the next run
  /// does not hash them again — from `stamps`, taken as each file was written, or else
  /// from the file on disk. Files of kept imagesets not judged this run keep their stamps
  /// (one without a stamp gets none: it is hashed when next judged).
  private func updateProbeCache(
    _ original: ProbeCache, found: SourceDiscovery.Result, decision: Staleness.Outcome,
    entries: [ManifestImageSet], written: Set<String>, stamps: [String: FileStamp]
  ) {
    var cache = original
    if !found.cacheUnchanged { cache.sources = found.cache }
    // The stamps are the cache's own when every file judged reused its stamp, and every
    // stamp was reused (paths are judged once each).
    var changed = !found.cacheUnchanged
    if !decision.stamps.isEmpty || decision.reusedStamps.count != original.outputs.count {
      cache.outputs = decision.stamps
      cache.outputs.reserveCapacity(decision.stamps.count + decision.reusedStamps.count)
      for key in decision.reusedStamps { cache.outputs[key] = original.outputs[key] }
      changed = true
    }
    // Up-to-date imagesets were stamped while deciding; written and kept ones may not be.
    let unstamped = Set(decision.kept.map(\.folder)).union(written)
    for entry in entries where unstamped.contains(entry.folder) {
      let fresh = written.contains(entry.folder)
      entry.forEachListedFile { file in
        let key = file.stampKey
        guard fresh || cache.outputs[key] == nil else { return }
        if !fresh {
          // Never stamped with the manifest's hash unread: it may have been edited since.
          guard let kept = original.outputs[key] else { return }
          cache.outputs[key] = kept
        } else if let known = stamps[key], known.hash == file.hash {
          cache.outputs[key] = known
        } else {
          let folder = file.folder(catalog: workspace.catalog, base: workspace.state.folder)
          guard let facts = FileFacts.current(at: folder.filePath(file.path)) else { return }
          cache.outputs[key] = FileStamp(facts, hash: file.hash)
        }
        changed = true
      }
    }
    if changed { try? cache.write(to: workspace.state.probeCache) }
    try? FileManager.default.removeItem(at: workspace.state.legacyProbeCache)
  }
}
