public import Foundation

/// The resolved locations of one run: asset folder, configuration, catalog, manifest.
public struct Workspace: Sendable {
  public var folder: URL
  public var config: Config
  public var configFile: URL?
  public var catalog: URL
  public var manifest: URL
  /// The probe cache (`.thumbforge-probe-cache`, beside the manifest): file facts reused
  /// while a file's size and modification time match.
  public var probeCache: URL
  public var swiftFile: URL?
  /// Whether discovery skips files whose real path leaves the folder (`serve`).
  var confined = false

  /// Loads the configuration and resolves every path.
  public static func resolve(_ options: BuildOptions) throws(ConfigError) -> Workspace {
    var folder = options.folder.standardizedFileURL
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw ConfigError(file: folder.path, line: nil, key: "", message: "no such asset folder")
    }
    // Paths in the configuration are relative to the folder itself: a URL without the
    // trailing slash would resolve them against its parent (`../out` beside the parent).
    folder = URL(fileURLWithPath: folder.path, isDirectory: true)
    let (config, file) = try ConfigLoader.load(folder: folder, explicit: options.configFile)
    let catalog =
      options.output?.standardizedFileURL
      ?? URL(fileURLWithPath: config.output, relativeTo: folder).standardizedFileURL
    if options.output != nil {
      if isInside(catalog, folder: folder) {
        throw ConfigError(
          file: "--output", line: nil, key: "",
          message: "'\(catalog.path)' is inside the asset folder and would be read back as input")
      }
    }
    let manifest =
      config.manifest.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
      ?? catalog.deletingLastPathComponent().appendingPathComponent("manifest.json")
    let swift =
      options.swiftFile
      ?? config.swift.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
    return Workspace(
      folder: folder, config: config, configFile: file, catalog: catalog, manifest: manifest,
      probeCache: manifest.deletingLastPathComponent().appendingPathComponent(
        ".thumbforge-probe-cache"),
      swiftFile: swift)
  }

  /// The manifest's line-format copy (see `ManifestCache`), beside the probe cache.
  public var manifestCache: URL {
    probeCache.deletingLastPathComponent().appendingPathComponent(".thumbforge-manifest-cache")
  }

  /// Where 0.3.0 kept the probe cache, under a name that said JSON for a file of
  /// tab-separated lines; a build (not a check) deletes it.
  var legacyProbeCache: URL {
    probeCache.deletingLastPathComponent().appendingPathComponent(".thumbforge-cache.json")
  }

  /// Paths the scanner must not read as masters.
  var skippedPaths: Set<String> {
    var paths: Set<String> = [
      catalog.path, manifest.path, probeCache.path, manifestCache.path, legacyProbeCache.path,
    ]
    if let configFile { paths.insert(configFile.standardizedFileURL.path) }
    if let swiftFile { paths.insert(swiftFile.path) }
    return paths
  }

  /// The manifest's folder → catalog relative path.
  var catalogRelativeToManifest: String {
    Self.relativePath(of: catalog, from: manifest.deletingLastPathComponent())
  }

  /// Whether `url` is `folder` or inside it (a path there would be read back as input).
  static func isInside(_ url: URL, folder: URL) -> Bool {
    var base = folder.standardizedFileURL.path
    if base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    let path = url.standardizedFileURL.path
    return path == base || path.hasPrefix(base + "/")
  }

  /// `url`'s path relative to `base` when inside it, else its absolute path (the manifest's
  /// `catalog` field).
  static func relativePath(of url: URL, from base: URL) -> String {
    let base = base.standardizedFileURL.path
    let path = url.standardizedFileURL.path
    if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
  }
}
