internal import Foundation
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering

/// The end of the pipeline, the only part that differs between runs that render: where the
/// rendered imagesets are written and how the run is recorded. The stages before it — load
/// what the last run left, discover, plan, decide, render — are the same code for every
/// destination (``BuildEngine/run(onEvent:)``).
///
/// A build writes into the catalog and records the manifest beside it
/// (``CatalogDestination``); a shard writes into its part folder and records the part's
/// manifest and `shard.json` (``ShardPartDestination``). Another destination — a catalog
/// streamed into a tar file, say — is one more type conforming to this protocol, plus the
/// line of ``BuildEngine/destination()`` that chooses it.
protocol BuildDestination: Sendable {
  /// The destination's state files: its manifest, and the pending list that names the
  /// imagesets being written while a run writes.
  var state: StateFiles { get }
  /// The catalog folder the destination writes (the report names it).
  var catalog: URL { get }
  /// Whether the destination holds the previous build's imagesets, to be replaced in place
  /// (the catalog), or starts empty (a part folder: a killed run's files are its own to
  /// empty, and there is no earlier version of an imageset to replace).
  var holdsPreviousBuild: Bool { get }

  /// Makes the destination ready before the run loads anything (a part folder is emptied).
  func prepare() throws(ConfigError)
  /// The part of the planned folder this destination writes (the whole, or a shard's part).
  func select(_ folder: PlannedFolder) -> PlannedFolder
  /// Writes one rendered imageset (files and `Contents.json`) and returns its manifest entry
  /// and the stamps of the files written. Called on the work queue's threads, as soon as the
  /// imageset's outputs exist.
  func write(
    set: PlannedImageSet, source: AssetSource, files: [RenderedFile], previous: ManifestImageSet?
  ) throws -> WrittenImageSet
  /// Removes an imageset the previous build wrote and the plan no longer makes, if this
  /// destination removes orphans at all; returns the number of files removed.
  func remove(_ orphan: ManifestImageSet) -> Int
  /// Records the finished run (the manifest last); returns the manifest recorded, if the
  /// run's manifest is the catalog's.
  func commit(_ run: FinishedRun) throws -> Manifest?
}

/// What a run hands its destination to record: everything the stages decided and made.
struct FinishedRun: Sendable {
  /// The engine that ran (its workspace, options and configuration hash).
  let engine: BuildEngine
  /// The whole folder as planned (a shard's record needs the whole plan's digest).
  let whole: PlannedFolder
  /// The part of it this destination writes.
  let planned: PlannedFolder
  let previous: PreviousBuild
  let state: BuildEngine.PreviousState
  let decision: Staleness.Outcome
  let rendered: [BuildEngine.JobOutcome]
  let cancelled: Bool
}
