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
  /// The folder of the web sizes (`web: folder:`); nil: none.
  package private(set) var web: URL? = nil
  /// The Android `res` folder (`android: folder:`); nil: none.
  package private(set) var android: URL? = nil
  /// The manifest's folder → web folder relative path, with a final `/` (nil without web
  /// sizes): what the manifest's web paths start with, so that a build can remove them
  /// after `web:` has left the configuration or moved. Resolved once (symbolic links
  /// followed), as every imageset's judgement asks for it.
  package private(set) var webRelativeToManifest: String? = nil
  /// The manifest's folder → Android `res` folder relative path, with a final `/` (nil
  /// without Android resources), as ``webRelativeToManifest``.
  package private(set) var androidRelativeToManifest: String? = nil
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
    var workspace = Workspace(
      folder: folder, config: config, configFile: file, catalog: catalog,
      state: StateFiles(manifest: manifest), swiftFile: swift)
    var claimed = [("the catalog", catalog)]
    for (key, path, line) in config.destinationFolders {
      let url = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
      // A file of one could take a name of another's (or the manifest's, beside the catalog).
      if let (other, _) = claimed.first(where: {
        FolderPath.isInside(url, folder: $0.1) || FolderPath.isInside($0.1, folder: url)
      }) {
        throw ConfigError(
          file: file?.lastPathComponent ?? "thumbforge.yml", line: line, key: key,
          message:
            "'\(path)' and \(other) hold one another; give each its own folder beside the catalog (../Build/web, ../Build/android/res)"
        )
      }
      claimed.append((key, url))
      let relative = FolderPath.climbingPath(of: url, from: workspace.state.folder) + "/"
      if key == "web.folder" {
        (workspace.web, workspace.webRelativeToManifest) = (url, relative)
      } else {
        (workspace.android, workspace.androidRelativeToManifest) = (url, relative)
      }
    }
    return workspace
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
    for folder in [web, android].compactMap(\.self) { paths.insert(folder.path) }
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
