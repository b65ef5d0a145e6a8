internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering
internal import Vips

/// A shard's destination (`build --shard I/N`): its part folder. The run discovers and plans
/// the whole folder (so that every shard splits the same plan the same way), keeps this
/// shard's jobs, decides them against the catalog the configuration names (read, never
/// written: a previous merged build makes the shard incremental), renders the stale ones into
/// the part's catalog (and their files of the destinations beside the catalog into the
/// part's own folders of them), and records the part's manifest and then `shard.json`. See
/// ``ShardAssignment``; `merge` puts the parts together.
struct ShardPartDestination: BuildDestination {
  let shard: Shard
  let part: ShardPart
  let writer: CatalogWriter

  /// The destination of `shard`: its part folder (`explicit`, or the default beside the
  /// manifest), refused inside the asset folder.
  init(shard: Shard, explicit: URL?, workspace: Workspace) throws(ConfigError) {
    self.shard = shard
    part = try ShardPart.resolve(shard, explicit: explicit, workspace: workspace)
    let part = part
    writer = CatalogWriter(
      catalog: part.catalog, config: workspace.config,
      derived: DerivedFile.Destination.allCases
        .filter { DerivedWriter.prefix(of: $0, in: workspace) != nil }
        .map { DerivedWriter($0, base: part.folder, prefix: ShardPart.derivedPrefix($0)) })
  }

  var state: StateFiles { part.state }
  var catalog: URL { part.catalog }
  var holdsPreviousBuild: Bool { false }

  /// Empties the part folder (a killed run's files included).
  func prepare() throws(ConfigError) { try part.prepare() }

  func select(_ folder: PlannedFolder) -> PlannedFolder { folder.part(shard) }

  func write(
    set: PlannedImageSet, source: AssetSource, files: [RenderedFile], previous: ManifestImageSet?
  ) throws -> WrittenImageSet {
    // Without the previous version: a part never removes anything (`merge` does).
    try writer.write(set: set, source: source, files: files, previous: nil)
  }

  /// A part never removes anything: `merge` removes the catalog's orphans.
  func remove(_ orphan: ManifestImageSet) -> Int { 0 }

  /// Records the part's manifest (the imagesets this shard answers for) with the
  /// ``RunRecorder``, then its record; nothing when the run was interrupted (the part stays
  /// unfinished).
  func commit(_ run: FinishedRun) throws -> Manifest? {
    guard !run.cancelled else { return nil }
    let workspace = run.engine.workspace
    let mine = Set(run.planned.plan.jobs.flatMap { $0.imageSets.map(\.folder) })
    let others = Set(run.whole.plan.jobs.flatMap { $0.imageSets.map(\.folder) }).subtracting(mine)
    let (all, written) = BuildEngine.entries(
      run.decision, rendered: run.rendered, previous: run.previous.imageSets)
    // Kept entries of sources that failed to load belong to the shard their asset prefers.
    let entries = all.filter {
      mine.contains($0.folder) || (!others.contains($0.folder) && shard.answersFor($0.asset))
    }
    let configHash = run.engine.configHash
    // The asset folder's own root Contents.json (an adopted catalog's), for `merge` to write
    // as a single build would.
    if let root = workspace.rootContents,
      let bytes = FileManager.default.contents(atPath: root.path)
    {
      try AtomicFile.write(
        Array(bytes), to: part.catalog.appendingPathComponent("Contents.json").path)
    }
    // A part starts empty, holds no group folders, no cache and no accessors: `merge`
    // writes those for the catalog.
    let recorder = RunRecorder(
      state: part.state, previous: .none, groups: nil, keepsCache: false, accessors: nil)
    _ = try recorder.record(
      entries, unchangedEntries: false, pending: run.state.pending, pendingAtStart: []
    ) { _ in
      run.engine.recorded(
        entries, groups: [], catalog: part.catalogName, failed: BuildEngine.failures(run.rendered))
    }
    let record = ShardRecord(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, index: shard.index,
      count: shard.count, configHash: configHash,
      planDigest: Self.planDigest(run.whole.plan, unusable: run.whole.found.unusable),
      providesNamespace: workspace.config.providesNamespace, catalogName: part.catalogName,
      swift: workspace.swiftFile.map {
        ShardRecord.SwiftSetting(
          path: FolderPath.climbingPath(of: $0, from: workspace.catalog),
          options: workspace.config.swiftAccessors)
      },
      destinations: Self.destinations(of: workspace),
      written: written.sorted(),
      carried: entries.map(\.folder).filter { !written.contains($0) }.sorted())
    try record.write(to: part.record)
    return nil
  }

  /// The destinations beside the catalog `workspace` writes, with their folders relative to
  /// its manifest (nil: none).
  static func destinations(of workspace: Workspace) -> [String: String]? {
    let folders = DerivedFile.Destination.allCases.reduce(into: [String: String]()) {
      folders, destination in
      folders[destination.rawValue] = DerivedWriter.prefix(of: destination, in: workspace)
    }
    return folders.isEmpty ? nil : folders
  }

  /// A digest of everything a shard's split depends on and every shard must agree on: each
  /// planned imageset's folder, key and masters, and the files that could not be used.
  static func planDigest(_ plan: BuildPlan, unusable: Set<String>) -> String {
    var lines: [String] = []
    for job in plan.jobs {
      let sources = job.source.manifestSources.map { "\($0.path)=\($0.hash)" }
        .joined(separator: ",")
      for set in job.imageSets { lines.append("\(set.folder)\t\(set.key)\t\(sources)") }
    }
    lines += unusable.sorted().map { "unusable\t\($0)" }
    return ContentHash.of(string: lines.sorted().joined(separator: "\n"))
  }
}

extension Shard {
  /// Whether this shard reports a problem or keeps an entry named `name` (each such thing
  /// is answered for by exactly one shard: the one the name prefers).
  func answersFor(_ name: String) -> Bool {
    ShardAssignment.favourite(of: name, count: count) == index - 1
  }
}

extension BuildPlan {
  /// The jobs (and problems) of one shard, split by ``ShardAssignment``.
  func part(_ shard: Shard) -> BuildPlan {
    let items = jobs.map { job in
      ShardAssignment.Item(
        name: job.source.qualifiedName,
        cost: BuildEngine.estimatedCost(of: job, sets: job.imageSets))
    }
    let shards = ShardAssignment.assign(items, count: shard.count)
    return BuildPlan(
      jobs: zip(jobs, shards).filter { $0.1 == shard.index - 1 }.map(\.0),
      problems: problems.filter { shard.answersFor($0.path) })
  }
}
