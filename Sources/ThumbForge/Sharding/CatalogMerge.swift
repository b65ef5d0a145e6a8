internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// `merge`: assembles the parts of a sharded build into one catalog and manifest, byte for
/// byte what a single build of the same folder and configuration writes.
///
/// Imagesets a shard rendered are copied from its part (each file checked against the hash
/// its manifest records), their files of the destinations beside the catalog (`web:`,
/// `android:`) into those destinations' folders; those it found up to date are taken from the catalog being
/// written, which must hold exactly that version. Imagesets of the previous manifest that no
/// part answers for are removed, as a build removes orphans; files ThumbForge did not write
/// are never overwritten. Every refusal comes before the first write, except a part file
/// whose bytes do not match its hash (found while copying; the pending list makes the next
/// merge finish or clean up).
package enum CatalogMerge {
  /// Merges `options.parts` into `options.output`; throws ``ShardError`` for parts that do
  /// not belong together (nothing written then), other errors when writing fails.
  package static func run(_ options: MergeOptions) throws -> BuildReport {
    let parts = try ShardParts.load(options.parts)
    let catalog = URL(fileURLWithPath: options.output.standardizedFileURL.path, isDirectory: true)
    let state =
      options.manifest.map { StateFiles(manifest: $0.standardizedFileURL) }
      ?? StateFiles(folder: catalog.deletingLastPathComponent())
    let recorded = try readPrevious(state)
    let previous = recorded.manifest
    let pending = PendingList(url: state.pendingList)
    let pendingAtStart = pending.read()
    var report = BuildReport()
    report.catalog = catalog.path
    report.manifest = state.manifest.path
    let previousSets = Dictionary(
      (previous?.imageSets ?? []).map { ($0.folder, $0) }, uniquingKeysWith: { a, _ in a })
    let sorted = try sort(
      parts, into: catalog, beside: state.folder, previous: previousSets,
      pendingAtStart: pendingAtStart, problems: &report.problems)
    // Each destination's folder relative to the manifest, as the shards recorded it.
    let destinations = parts.first.record.destinations ?? [:]
    if pending.exists {
      AtomicFile.sweep(folder: catalog.path)
      for prefix in destinations.values { AtomicFile.sweep(folder: state.folder.filePath(prefix)) }
    }
    try pending.write(Set(sorted.copies.map(\.entry.folder)))
    let swiftFile =
      options.swiftFile
      ?? parts.first.record.swift.map {
        URL(fileURLWithPath: $0.path, relativeTo: catalog).standardizedFileURL
      }
    let writer = writer(of: parts, catalog: catalog, state: state, destinations: destinations)
    var entries: [ManifestImageSet] = []
    for copy in sorted.copies {
      entries.append(
        try writer.copy(
          copy.entry, from: copy.part.location, previous: previousSets[copy.entry.folder],
          partName: copy.part.name))
      report.rendered += copy.entry.outputs.count
    }
    report.unchanged = sorted.carried.reduce(0) { $0 + $1.outputs.count }
    entries += sorted.carried
    let kept = Set(entries.map(\.folder))
    for orphan in previous?.imageSets ?? [] where !kept.contains(orphan.folder) {
      report.removed += writer.remove(orphan)
    }
    try record(
      entries, of: parts, previous: recorded, writer: writer, state: state,
      pending: (pendingAtStart, pending), swiftFile: swiftFile)
    report.problems.sort()
    return report
  }

  /// Writes the merged catalog as a build of the parts' configuration writes it, and its
  /// files of each destination beside it into `destinations`' folders (relative to the
  /// manifest's).
  private static func writer(
    of parts: ShardParts, catalog: URL, state: StateFiles, destinations: [String: String]
  ) -> CatalogWriter {
    var config = Config()
    config.providesNamespace = parts.first.record.providesNamespace
    config.swiftAccessors = parts.first.record.swift?.options ?? config.swiftAccessors
    // A part's root Contents.json is the asset folder's own when it has one (an adopted
    // catalog's), so the merged catalog gets the root a single build would write.
    let root = parts.first.location.catalog.appendingPathComponent("Contents.json")
    return CatalogWriter(
      catalog: catalog, config: config,
      rootContents: FileManager.default.fileExists(atPath: root.path) ? root : nil,
      derived: DerivedFile.Destination.allCases.map {
        DerivedWriter($0, base: state.folder, prefix: destinations[$0.rawValue])
      })
  }

  /// What the catalog being merged into recorded (its manifest nil: none yet).
  private static func readPrevious(_ state: StateFiles) throws -> RecordedManifest {
    guard let recorded = RecordedManifest.read(state) else {
      throw ShardError(
        "\(state.manifest.path): manifest is not valid JSON of schema \(Manifest.currentSchema); remove it to merge from scratch"
      )
    }
    return recorded
  }

  /// Records the merged catalog as a build does, with the ``RunRecorder``: group folders,
  /// the manifest (when it changed) and its cache, the pending list cleared, the Swift
  /// accessors.
  private static func record(
    _ entries: [ManifestImageSet], of parts: ShardParts, previous: RecordedManifest,
    writer: CatalogWriter, state: StateFiles, pending: (atStart: Set<String>, list: PendingList),
    swiftFile: URL?
  ) throws {
    let recorder = RunRecorder(
      state: state, previous: previous, groups: writer, keepsCache: true,
      accessors: swiftFile.map {
        SwiftAccessorTarget(
          file: $0, providesNamespace: writer.config.providesNamespace,
          options: writer.config.swiftAccessors, catalog: writer.catalog)
      })
    // Every entry is compared: merge cannot tell that none changed.
    _ = try recorder.record(
      entries, unchangedEntries: false, pending: pending.list, pendingAtStart: pending.atStart
    ) { groups in
      var manifest = Manifest(
        toolVersion: ToolVersion.current, libvipsVersion: parts.first.record.libvipsVersion,
        configHash: parts.first.record.configHash,
        catalog: FolderPath.climbingPath(of: writer.catalog, from: state.folder),
        groups: groups, imageSets: entries)
      // Each master is rendered by one shard: the parts' failures together are the build's.
      let failed = Set(parts.parts.flatMap { $0.manifest.failed ?? [] })
      manifest.failed = failed.isEmpty ? nil : failed.sorted()
      // Every part records the recipes of its own imagesets, all from one configuration.
      let recipes = parts.parts.reduce(into: [String: [String: String]]()) { all, part in
        all.merge(part.manifest.recipes ?? [:]) { a, _ in a }
      }.filter { name, _ in entries.contains { $0.recipe == name } }
      manifest.recipes = recipes.isEmpty ? nil : recipes
      manifest.settings = parts.first.manifest.settings
      return manifest
    }
  }

  /// What to copy from the parts and what to keep from the catalog, after every check.
  private struct Sorted {
    var copies: [(part: ShardParts.Part, entry: ManifestImageSet)] = []
    var carried: [ManifestImageSet] = []
  }

  /// Sorts every part's entries into copies and carried ones. Throws when a part is damaged
  /// (a file missing or of the wrong size) or relied on a catalog other than `catalog` (with
  /// its manifest in `base`); imagesets someone else put in the catalog become problems and
  /// are left alone.
  private static func sort(
    _ parts: ShardParts, into catalog: URL, beside base: URL,
    previous: [String: ManifestImageSet], pendingAtStart: Set<String>, problems: inout [Problem]
  ) throws(ShardError) -> Sorted {
    var sorted = Sorted()
    for part in parts.parts {
      let written = Set(part.record.written)
      for entry in part.manifest.imageSets {
        guard written.contains(entry.folder) else {
          try checkCarried(
            entry, of: part, in: catalog, beside: base, previous: previous[entry.folder])
          sorted.carried.append(entry)
          continue
        }
        let owned = previous[entry.folder] != nil || pendingAtStart.contains(entry.folder)
        if !owned
          && FileManager.default.fileExists(
            atPath: catalog.appendingPathComponent(entry.folder).path)
        {
          problems.append(
            Problem(
              path: entry.folder,
              reason:
                "exists in the catalog but was not made by ThumbForge; not overwritten (remove or rename it)"
            ))
          continue
        }
        try checkComplete(entry, of: part)
        sorted.copies.append((part, entry))
      }
    }
    return sorted
  }

  /// Every file of a rendered entry is in the part, inside it, with the size its manifest
  /// records.
  private static func checkComplete(_ entry: ManifestImageSet, of part: ShardParts.Part)
    throws(ShardError)
  {
    var damaged: ShardError? = nil
    entry.forEachListedFile { file in
      guard damaged == nil else { return }
      // A destination's files are in the part's own folder of it; nothing leaves the part.
      let folder = file.folder(catalog: part.location.catalog, base: part.location.folder)
      let inPlace = file.destination.map { file.path.hasPrefix(ShardPart.derivedPrefix($0)) }
      guard inPlace ?? true, ShardPart.staysInside(file.path) else {
        damaged = ShardError(
          "\(part.name): \(file.path) leaves the part: the part is damaged; run the shard again")
        return
      }
      let facts = FileFacts.current(at: folder.appendingPathComponent(file.path).path)
      if facts == nil || file.bytes.map({ $0 != facts?.size }) == true {
        damaged = ShardError(
          "\(part.name): \(file.path) is missing or incomplete: the part is damaged (copied only in part?); run the shard again"
        )
      }
    }
    if let damaged { throw damaged }
  }

  /// An entry the shard found up to date must be the catalog's own, with its files present
  /// (those beside the catalog relative to `base`, the manifest's folder).
  private static func checkCarried(
    _ entry: ManifestImageSet, of part: ShardParts.Part, in catalog: URL, beside base: URL,
    previous: ManifestImageSet?
  ) throws(ShardError) {
    var present = previous == entry
    entry.forEachListedFile { file in
      let folder = file.folder(catalog: catalog, base: base)
      present = present && FileManager.default.fileExists(atPath: folder.filePath(file.path))
    }
    guard present else {
      throw ShardError(
        "\(part.name) reused \(entry.folder) from the catalog it was built against, but \(catalog.path) does not hold that version: merge into that catalog, or build the shards without it"
      )
    }
  }
}
