internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering

/// Writes what ThumbForge owns in the catalog (image files, imageset and group
/// `Contents.json`) atomically, and removes only what the manifest says it wrote.
struct CatalogWriter: Sendable {
  let catalog: URL
  let config: Config
  /// The asset folder's own `Contents.json`, written as the catalog root's when that is
  /// missing (an adopted catalog's root, kept as it was).
  var rootContents: URL? = nil
  /// Write the files of the destinations beside the catalog (`web:`, `android:`) and remove
  /// those an earlier build wrote; empty: none are written or removed (a shard's part).
  var derived: [DerivedWriter] = []

  /// Writes the rendered files and `Contents.json` of one imageset; returns its manifest entry
  /// and the files' stamps. Files the previous version listed but this one does not (a
  /// dropped scale) are removed.
  func write(
    set: PlannedImageSet, source: AssetSource, files: [RenderedFile], previous: ManifestImageSet?
  ) throws -> WrittenImageSet {
    var stamps: [String: FileStamp] = [:]
    // A carried set's files already in the catalog as they are (one adopted in place) are
    // left as they are: same bytes, and no new modification time for Xcode to rebuild on.
    let keepsSame = set.recipe.kind == .asIs
    for file in files {
      let path = catalog.filePath(file.output.path)
      // Not durable: the manifest's hashes catch a file a crash left incomplete.
      let written =
        try (keepsSame ? Self.same(file.bytes, at: path) : nil)
        ?? AtomicFile.write(file.bytes, to: path, durable: false)
      stamps[file.output.path] = FileStamp(written, hash: file.hash)
    }
    let contents = Array(set.contents.utf8)
    let contentsPath = set.folder + "/Contents.json"
    let contentsHash = ContentHash.of(contents)
    let path = catalog.filePath(contentsPath)
    let written =
      try (keepsSame ? Self.same(contents, at: path) : nil)
      ?? AtomicFile.write(contents, to: path, durable: false)
    stamps[contentsPath] = FileStamp(written, hash: contentsHash)
    removeDropped(previous, keeping: Set(files.map(\.output.path)))
    var entry = ManifestImageSet(
      asset: source.qualifiedName, group: source.group, recipe: set.recipe.name,
      recipeHash: set.key,
      folder: set.folder, contentsHash: contentsHash,
      sources: source.manifestSources,
      outputs: files.map { file in
        ManifestOutput(
          path: file.output.path, scale: file.output.slot.scale,
          appearance: file.output.slot.manifestAppearance,
          width: file.output.pixelSize.width, height: file.output.pixelSize.height,
          bytes: file.bytes.count,
          hash: file.hash, crop: file.output.crop,
          displayGamut: file.output.slot.manifestGamut)
      }.sorted { $0.path < $1.path },
      warnings: set.warnings, skipped: set.skipped, focus: set.focus)
    // A set is written only when all its files rendered, so the chosen one's hash is here.
    entry.thumbHash = files.lazy.compactMap(\.placeholder).first.map {
      Data($0).base64EncodedString()
    }
    for writer in derived {
      let written = try writer.write(
        set: set, files: files, placeholder: entry.thumbHash, stamps: &stamps)
      if writer.destination == .web { entry.web = written } else { entry.android = written }
      writer.removeDropped(previous.flatMap(writer.recorded(in:)), keeping: written)
    }
    return WrittenImageSet(entry: entry, stamps: stamps)
  }

  /// The size and modification time of the file at `path` when it holds exactly `bytes`;
  /// nil when it is missing or differs.
  private static func same(_ bytes: [UInt8], at path: String) -> FileFacts? {
    guard let facts = FileFacts.current(at: path), facts.size == bytes.count,
      let data = FileManager.default.contents(atPath: path), data.elementsEqual(bytes)
    else { return nil }
    return facts
  }

  /// Removes the files the previous version of an imageset listed that are not in `kept`
  /// (a dropped scale).
  func removeDropped(_ previous: ManifestImageSet?, keeping kept: Set<String>) {
    for old in previous?.outputs ?? [] where !kept.contains(old.path) {
      try? FileManager.default.removeItem(at: catalog.appendingPathComponent(old.path))
    }
  }

  /// Removes an orphaned imageset's files (only those listed, the destinations' beside the
  /// catalog too), then its folder if empty.
  func remove(_ entry: ManifestImageSet) -> Int {
    var removed = 0
    for path in entry.outputs.map(\.path) + [entry.folder + "/Contents.json"] {
      if (try? FileManager.default.removeItem(at: catalog.appendingPathComponent(path))) != nil {
        removed += 1
      }
    }
    removeIfEmpty(catalog.appendingPathComponent(entry.folder))
    for writer in derived {
      if let listed = writer.recorded(in: entry) { removed += writer.remove(listed) }
    }
    return removed
  }

  /// Writes the catalog's root and group `Contents.json` files ThumbForge owns and removes
  /// those of groups no longer used; returns the groups to record as owned.
  ///
  /// Group folders are written after the imagesets and before the manifest: the new ones are
  /// recorded in `pending` first, so a run killed in between still knows them as its own.
  ///
  /// Only the groups of rendered imagesets get ThumbForge's `Contents.json`: a group whose
  /// own `Contents.json` is carried (an entry of the `as-is` recipe) keeps that one, and a
  /// group holding carried sets only is left as the team made it.
  func writeGroupFolders(
    of entries: [ManifestImageSet], previousGroups: Set<String>, pendingAtStart: Set<String>,
    pending: PendingList
  ) throws -> Set<String> {
    let carried = Set(entries.lazy.filter(\.isCarried).map(\.folder))
    let groups = Set(entries.lazy.filter { !$0.isCarried }.map(\.group).filter { !$0.isEmpty })
    let used = GroupFolders.paths(of: groups).subtracting(carried)
    let owned = previousGroups.union(pendingAtStart.intersection(used)).subtracting(carried)
    let new = used.filter {
      !FileManager.default.fileExists(
        atPath: catalog.filePath($0 + "/Contents.json"))
    }
    try pending.write(new)
    let written = try writeFolders(
      groups: groups, owned: owned, carried: carried,
      rendersImageSets: entries.contains { !$0.isCarried })
    removeGroups(owned.subtracting(used))
    return written.union(owned.intersection(used))
  }

  /// Writes the root and group `Contents.json` files that are missing or owned (never those
  /// of `carried` group folders). A missing root's is the asset folder's own
  /// `Contents.json` when it has one (``rootContents``), else Xcode's when the build renders
  /// imagesets (a catalog of carried sets only keeps the root it had: none).
  func writeFolders(
    groups: Set<[String]>, owned: Set<String>, carried: Set<String> = [],
    rendersImageSets: Bool = true
  ) throws -> Set<String> {
    let root = catalog.appendingPathComponent("Contents.json")
    if !FileManager.default.fileExists(atPath: root.path) {
      if let own = rootContents.flatMap({ FileManager.default.contents(atPath: $0.path) }) {
        try AtomicFile.write(Array(own), to: root.path)
      } else if rendersImageSets {
        try AtomicFile.write(Array(CatalogContents.root().utf8), to: root.path)
      }
    }
    var written = Set<String>()
    for group in groups {
      for depth in 1...max(1, group.count) where !group.isEmpty {
        let path = group.prefix(depth).joined(separator: "/")
        if carried.contains(path) { continue }
        let file = catalog.appendingPathComponent(path + "/Contents.json")
        let exists = FileManager.default.fileExists(atPath: file.path)
        guard !exists || owned.contains(path) else { continue }
        let text = Array(CatalogContents.group(providesNamespace: config.providesNamespace).utf8)
        if !exists || FileManager.default.contents(atPath: file.path).map(Array.init) != text {
          try AtomicFile.write(text, to: file.path, durable: false)  // compared every build
        }
        written.insert(path)
      }
    }
    return written
  }

  /// Removes owned group `Contents.json` files of groups no longer used.
  func removeGroups(_ groups: Set<String>) {
    for group in groups.sorted(by: >) {
      let folder = catalog.appendingPathComponent(group)
      try? FileManager.default.removeItem(at: folder.appendingPathComponent("Contents.json"))
      removeIfEmpty(folder)
    }
  }

  func removeIfEmpty(_ folder: URL) {
    if let items = try? FileManager.default.contentsOfDirectory(atPath: folder.path), items.isEmpty
    {
      try? FileManager.default.removeItem(at: folder)
    }
  }
}
