internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig

/// The last stage of every run that writes a catalog — a build, a shard's part, `merge` — and
/// the one place that records one: the group folders, then the manifest when it changed or is
/// missing, with its line-format cache beside it, then the pending list cleared, then the
/// Swift accessors. So the first build after a `merge` reads the cache `merge` wrote, as it
/// would after a build.
struct RunRecorder: Sendable {
  /// Where the manifest, its cache and the pending list are.
  let state: StateFiles
  /// What the last run recorded there.
  let previous: RecordedManifest
  /// The catalog's writer, for its group folders; nil: none are written (a shard's part).
  let groups: CatalogWriter?
  /// Whether the manifest's line-format cache is kept beside it (not for a part, which only
  /// `merge` reads, once).
  let keepsCache: Bool
  /// Where the Swift accessors go; nil: none are written.
  let accessors: SwiftAccessorTarget?

  /// Records `entries`: writes the group folders, then the manifest `make` assembles for the
  /// groups in use (written only when it differs from the previous one, or is missing:
  /// `unchangedEntries` says that no imageset was written, so the entries need no
  /// comparison), its cache, the pending list cleared, and the accessors. Returns the
  /// manifest.
  func record(
    _ entries: [ManifestImageSet], unchangedEntries: Bool,
    pending: PendingList, pendingAtStart: Set<String>,
    manifest make: (_ groups: [String]) -> Manifest
  ) throws -> Manifest {
    let groups =
      try groups?.writeGroupFolders(
        of: entries, previousGroups: Set(previous.manifest?.groups ?? []),
        pendingAtStart: pendingAtStart, pending: pending) ?? []
    let manifest = make(Array(groups))
    var cacheFacts = previous.staleCacheFacts
    if manifest.differs(from: previous.manifest, unlessSameEntries: unchangedEntries)
      || !FileManager.default.fileExists(atPath: state.manifest.path)
    {
      try ManifestStore.write(manifest, to: state.manifest)
      cacheFacts = FileFacts.current(at: state.manifest.path)
    }
    if keepsCache, let cacheFacts {
      try? ManifestCache.write(manifest, to: state.manifestCache, facts: cacheFacts)
    }
    pending.clear()
    if let accessors {
      try SwiftAccessorGenerator.write(
        manifest, providesNamespace: accessors.providesNamespace, options: accessors.options,
        to: accessors.file, catalog: accessors.catalog)
    }
    return manifest
  }
}

/// What the last run recorded beside a catalog: its manifest, and whether the line-format
/// cache beside it is current.
struct RecordedManifest: Sendable {
  /// The manifest; nil: none yet.
  var manifest: Manifest?
  /// The manifest file's facts to record in a new cache; nil when the cache is current.
  var staleCacheFacts: FileFacts?

  /// Nothing recorded (a part folder, emptied before its run).
  static let none = RecordedManifest(manifest: nil, staleCacheFacts: nil)

  /// Reads the manifest of `state`, from its cache while that is current; nil when the
  /// manifest is unreadable.
  static func read(_ state: StateFiles) -> RecordedManifest? {
    let facts = FileFacts.current(at: state.manifest.path)
    if let cached = ManifestCache.read(at: state.manifestCache, matching: facts) {
      return RecordedManifest(manifest: cached, staleCacheFacts: nil)
    }
    do {
      return RecordedManifest(
        manifest: try ManifestStore.read(at: state.manifest), staleCacheFacts: facts)
    } catch {
      return nil
    }
  }
}

/// Where and how a run writes its Swift accessors.
struct SwiftAccessorTarget: Sendable {
  var file: URL
  var providesNamespace: Bool
  var options: SwiftAccessorOptions
  /// The catalog the accessors name (for the bundle's catalog name).
  var catalog: URL
}
