internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig

/// What the last build left: its manifest, read from the manifest cache while that is
/// current, and the size and modification time of every catalog file the manifest lists,
/// read before the run discovers and plans.
struct PreviousBuild: Sendable {
  var recorded: RecordedManifest
  var manifest: Manifest? { recorded.manifest }
  /// The manifest's imagesets by folder (the first, should one appear twice).
  var imageSets: [String: ManifestImageSet]
  /// Catalog-relative path → size and modification time (nil: missing) of the outputs and
  /// imageset `Contents.json` files the manifest lists, and of the files of its destinations beside the catalog
  /// (their paths after ``DerivedWriter/stampPrefix``).
  var files: [String: FileFacts?]

  /// Reads the manifest and looks up its files; throws when the manifest is unreadable.
  static func load(_ workspace: Workspace) throws(ConfigError) -> PreviousBuild {
    guard let recorded = RecordedManifest.read(workspace.state) else {
      throw ConfigError(
        file: workspace.manifest.path, line: nil, key: "",
        message:
          "manifest is not valid JSON of schema \(Manifest.currentSchema); remove it to rebuild from scratch"
      )
    }
    let manifest = recorded.manifest
    let sets = manifest?.imageSets ?? []
    let catalog = OpenFolder(path: workspace.catalog.path)
    let base = OpenFolder(path: workspace.state.folder.path)
    // Each file's key in `files`, its path, and the folder it is in.
    var lookups: [(key: String, path: String, folder: OpenFolder)] = []
    for set in sets {
      for path in set.outputs.map(\.path) + [set.folder + "/Contents.json"] {
        lookups.append((path, path, catalog))
      }
      for path in set.derived.flatMap(\.files.paths) {
        lookups.append((DerivedWriter.stampPrefix + path, path, base))
      }
    }
    // Looked up on every core: a run that changes nothing spends much of its time here.
    let facts = ParallelMap.map(
      lookups, perChunk: 512,
      { _, lookup in FileFacts.current(at: lookup.path, in: lookup.folder) },
      makingState: {})
    var files: [String: FileFacts?] = [:]
    files.reserveCapacity(lookups.count)
    for (lookup, fact) in zip(lookups, facts) { files.updateValue(fact, forKey: lookup.key) }
    return PreviousBuild(
      recorded: recorded,
      imageSets: Dictionary(sets.map { ($0.folder, $0) }, uniquingKeysWith: { a, _ in a }),
      files: files)
  }
}
