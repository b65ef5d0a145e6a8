internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig

/// What the last build left: its manifest, read from the manifest cache while that is
/// current. (Its files are looked up as the run judges each imageset: see ``Staleness``.)
struct PreviousBuild: Sendable {
  var recorded: RecordedManifest
  var manifest: Manifest? { recorded.manifest }
  /// The manifest's imagesets by folder (the first, should one appear twice).
  var imageSets: [String: ManifestImageSet]

  /// Reads the manifest; throws when it is unreadable.
  static func load(_ workspace: Workspace) throws(ConfigError) -> PreviousBuild {
    guard let recorded = RecordedManifest.read(workspace.state) else {
      throw ConfigError(
        file: workspace.manifest.path, line: nil, key: "",
        message:
          "manifest is not valid JSON of schema \(Manifest.currentSchema); remove it to rebuild from scratch"
      )
    }
    let sets = Dictionary(
      (recorded.manifest?.imageSets ?? []).map { ($0.folder, $0) }, uniquingKeysWith: { a, _ in a })
    return PreviousBuild(recorded: recorded, imageSets: sets)
  }
}
