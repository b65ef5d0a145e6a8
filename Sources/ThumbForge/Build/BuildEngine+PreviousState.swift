internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

extension BuildEngine {
  /// What earlier runs left: the probe cache, the previous build (or why it is unreadable,
  /// thrown where the run first needs it) and the pending list of a killed run.
  struct PreviousState: Sendable {
    let probeCache: ProbeCache
    let build: Result<PreviousBuild, ConfigError>
    let pending: PendingList
    /// Folders a killed run was writing (imagesets and group folders): still ours.
    let pendingAtStart: Set<String>
  }

  /// Stage 1: loads what the last run left, and removes the temporary files of a
  /// run that was killed (in the catalog and the folders beside it) (except in `check`, which writes nothing, and for a destination
  /// that does not hold the previous build, such as a shard's part folder: the catalog is
  /// only read, and the pending list is the destination's).
  func loadPreviousState(_ destination: any BuildDestination) throws(ConfigError)
    -> PreviousState
  {
    let probeCache = ProbeCache.read(at: workspace.state.probeCache)
    let build = Result { () throws(ConfigError) in try PreviousBuild.load(workspace) }
    let pending = PendingList(url: destination.state.pendingList)
    if options.mode != .check && destination.holdsPreviousBuild {
      // Temporary files in the catalog only outlive a run that was killed, which leaves its
      // pending list. (An unreadable manifest stops the run first.)
      if pending.exists {
        _ = try build.get()
        AtomicFile.sweep(folder: workspace.catalog.path)
        for folder in [workspace.web, workspace.android].compactMap(\.self) {
          AtomicFile.sweep(folder: folder.path)
        }
      }
      // The manifest, the caches and the accessors file are written beside the catalog, some
      // after the pending list is cleared: look there (one folder listing) on every run.
      var folders = [workspace.manifest.deletingLastPathComponent().path]
      if let swiftFile = workspace.swiftFile {
        folders.append(swiftFile.deletingLastPathComponent().path)
      }
      for folder in Set(folders) { AtomicFile.sweep(folder: folder, recursive: false) }
    }
    return PreviousState(
      probeCache: probeCache, build: build, pending: pending, pendingAtStart: pending.read())
  }
}
