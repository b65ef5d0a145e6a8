package import Foundation
package import ThumbForgeBasics
internal import ThumbForgeCatalog
package import ThumbForgeConfig

/// `build --watch`: a build now, then another whenever the asset folder or the configuration
/// changes, until cancelled. Polls the folder listing (paths, sizes, modification times):
/// portable, and cheap for folders of thousands of files.
///
/// A configuration that does not load (a half-written or wrong save of `thumbforge.yml`) is
/// reported and watching goes on, as webpack's or SwiftGen's watchers do: the next save that
/// loads is built.
package struct Watch: Sendable {
  package var options: BuildOptions
  package var cancellation: CancellationFlag
  /// Seconds between two looks at the folder.
  package var interval: Double

  /// What happens between builds, for the caller to show.
  package enum Event: Sendable {
    /// A look found these files added, removed or changed (the configuration by its file
    /// name), once the folder settled; a build follows.
    case changed([String])
    /// The configuration does not load (or the run stopped on another configuration
    /// error): nothing was built, and watching goes on.
    case configurationError(ConfigError)
  }

  package init(options: BuildOptions, cancellation: CancellationFlag, interval: Double = 1) {
    self.options = options
    self.cancellation = cancellation
    self.interval = interval
  }

  /// The configuration files a change of which is a change: the explicit one, else every
  /// name looked for in the folder (one may appear, or replace another).
  package var configFiles: [URL] {
    if let explicit = options.configFile { return [explicit.standardizedFileURL] }
    return ConfigLoader.fileNames.map { folder.appendingPathComponent($0) }
  }

  private var folder: URL { options.folder.standardizedFileURL }

  /// Calls `build` with a new engine (the configuration read again) for the first build and
  /// after every change, until cancelled. A configuration error, from loading or from the
  /// build, goes to `onEvent` and the watch goes on; only a folder that is not there at the
  /// start ends it (with that error).
  ///
  /// A change is built once the folder has settled (one look after it shows nothing new), so
  /// that a master still being copied or saved in is not read half-written.
  package func run(
    onEvent: (Event) -> Void = { _ in }, _ build: (BuildEngine) throws -> Void
  ) throws {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw ConfigError(file: folder.path, line: nil, key: "", message: "no such asset folder")
    }
    // Paths the look leaves out (the catalog, manifest and caches when they are inside the
    // folder): the last loaded workspace's, kept while the configuration does not load.
    var skipped: Set<String> = []
    func attempt() throws {
      do {
        let engine = try BuildEngine(options: options, cancellation: cancellation)
        skipped = engine.workspace.skippedPaths
        try build(engine)
      } catch let error as ConfigError {
        onEvent(.configurationError(error))
      }
    }
    try attempt()
    var signature = look(skipping: skipped)
    while !cancellation.isCancelled {
      Thread.sleep(forTimeInterval: interval)
      let now = look(skipping: skipped)
      guard now != signature else { continue }
      let settled = settled(from: now, skipping: skipped)
      guard !cancellation.isCancelled else { break }
      onEvent(.changed(settled.changes(since: signature)))
      let before = skipped
      try attempt()
      // A configuration that moved the catalog or manifest changes what a look leaves out:
      // look again, or the next look would differ by those files alone.
      signature = skipped == before ? settled : look(skipping: skipped)
    }
  }

  /// The folder's signature, less `skipped`, with the configuration files.
  private func look(skipping skipped: Set<String>) -> FolderSignature {
    let configs = configFiles
    return FolderSignature.of(
      folder: folder, skipping: skipped.union(configs.map(\.path)), configFiles: configs)
  }

  /// Looks again every `interval` until two looks in a row agree; returns the last one.
  private func settled(from changed: FolderSignature, skipping skipped: Set<String>)
    -> FolderSignature
  {
    var last = changed
    while !cancellation.isCancelled {
      Thread.sleep(forTimeInterval: interval)
      let now = look(skipping: skipped)
      if now == last { break }
      last = now
    }
    return last
  }
}
