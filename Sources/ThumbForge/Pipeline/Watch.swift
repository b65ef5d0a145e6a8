internal import Foundation

/// `build --watch`: a build now, then another whenever the asset folder or the configuration
/// changes, until cancelled. Polls the folder listing (paths, sizes, modification times):
/// portable, and cheap for folders of thousands of files.
public struct Watch: Sendable {
  public var options: BuildOptions
  public var cancellation: CancellationFlag
  /// Seconds between two looks at the folder.
  public var interval: Double

  public init(options: BuildOptions, cancellation: CancellationFlag, interval: Double = 1) {
    self.options = options
    self.cancellation = cancellation
    self.interval = interval
  }

  /// Calls `build` with a new engine (the configuration read again) for the first build and
  /// after every change, until cancelled. A configuration that became invalid ends the watch
  /// with its error.
  ///
  /// A change is built once the folder has settled (one look after it shows nothing new), so
  /// that a master still being copied or saved in is not read half-written.
  public func run(_ build: (BuildEngine) throws -> Void) throws {
    var engine = try BuildEngine(options: options, cancellation: cancellation)
    var signature = FolderSignature.of(engine.workspace)
    try build(engine)
    while !cancellation.isCancelled {
      Thread.sleep(forTimeInterval: interval)
      let now = FolderSignature.of(engine.workspace)
      guard now != signature else { continue }
      signature = settled(from: now, in: engine.workspace)
      guard !cancellation.isCancelled else { break }
      engine = try BuildEngine(options: options, cancellation: cancellation)
      try build(engine)
    }
  }

  /// Looks again every `interval` until two looks in a row agree; returns the last one.
  private func settled(from changed: FolderSignature, in workspace: Workspace) -> FolderSignature {
    var last = changed
    while !cancellation.isCancelled {
      Thread.sleep(forTimeInterval: interval)
      let now = FolderSignature.of(workspace)
      if now == last { break }
      last = now
    }
    return last
  }
}
