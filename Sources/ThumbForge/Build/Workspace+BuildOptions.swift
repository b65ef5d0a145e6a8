package import ThumbForgeCatalog
package import ThumbForgeConfig

extension Workspace {
  /// The workspace of a run with these options.
  package static func resolve(_ options: BuildOptions) throws(ConfigError) -> Workspace {
    try resolve(
      Request(
        folder: options.folder, configFile: options.configFile, output: options.output,
        swiftFile: options.swiftFile))
  }
}
