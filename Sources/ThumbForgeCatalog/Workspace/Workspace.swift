package import Foundation
internal import ThumbForgeBasics
package import ThumbForgeConfig

/// The resolved locations of one run: asset folder, configuration, catalog and the state
/// files beside it (see ``StateFiles``).
package struct Workspace: Sendable {
  package var folder: URL
  package var config: Config
  package var configFile: URL?
  package var catalog: URL
  /// The manifest and the caches and lists kept beside it.
  package var state: StateFiles
  package var swiftFile: URL?
  /// Whether discovery skips files whose real path leaves the folder (`serve`).
  package var confined = false

  /// What a run names on its command line; everything else comes from the configuration.
  package struct Request: Sendable {
    /// The asset folder.
    package var folder: URL
    /// `--config`: the configuration file, when not the folder's own `thumbforge.yml`.
    package var configFile: URL?
    /// `--output`: the catalog, overriding the configuration's `output`.
    package var output: URL?
    /// `--swift`: the accessors file, overriding the configuration's `swift`.
    package var swiftFile: URL?

    package init(folder: URL, configFile: URL? = nil, output: URL? = nil, swiftFile: URL? = nil) {
      self.folder = folder
      self.configFile = configFile
      self.output = output
      self.swiftFile = swiftFile
    }
  }

  /// Loads the configuration and resolves every path.
  package static func resolve(_ request: Request) throws(ConfigError) -> Workspace {
    var folder = request.folder.standardizedFileURL
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw ConfigError(file: folder.path, line: nil, key: "", message: "no such asset folder")
    }
    // Paths in the configuration are relative to the folder itself: a URL without the
    // trailing slash would resolve them against its parent (`../out` beside the parent).
    folder = URL(fileURLWithPath: folder.path, isDirectory: true)
    let (config, file) = try ConfigLoader.load(folder: folder, explicit: request.configFile)
    let catalog =
      request.output?.standardizedFileURL
      ?? URL(fileURLWithPath: config.output, relativeTo: folder).standardizedFileURL
    if request.output != nil {
      if FolderPath.isInside(catalog, folder: folder) {
        throw ConfigError(
          file: "--output", line: nil, key: "",
          message: "'\(catalog.path)' is inside the asset folder and would be read back as input")
      }
    }
    let manifest =
      config.manifest.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
      ?? catalog.deletingLastPathComponent().appendingPathComponent(StateFiles.manifestName)
    let swift =
      request.swiftFile
      ?? config.swift.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
    return Workspace(
      folder: folder, config: config, configFile: file, catalog: catalog,
      state: StateFiles(manifest: manifest), swiftFile: swift)
  }

  /// The manifest.
  package var manifest: URL { state.manifest }

  /// The asset folder's own `Contents.json` (an adopted catalog's root), if it has one.
  package var rootContents: URL? {
    let url = folder.appendingPathComponent("Contents.json")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// Paths the scanner must not read as masters.
  package var skippedPaths: Set<String> {
    var paths = Set([catalog.path] + state.unreadable.map(\.path))
    if let configFile { paths.insert(configFile.standardizedFileURL.path) }
    if let swiftFile { paths.insert(swiftFile.path) }
    return paths
  }

  /// The manifest's folder → catalog relative path (with `..` when the manifest sits
  /// elsewhere, as an adopted catalog's does: never a machine's absolute path).
  package var catalogRelativeToManifest: String {
    FolderPath.climbingPath(of: catalog, from: state.folder)
  }
}
