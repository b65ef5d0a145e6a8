internal import Foundation
internal import Vips

extension BuildEngine {
  /// Builds one shard (`build --shard I/N`): discovers and plans the whole folder (so that
  /// every shard splits the same plan the same way), keeps this shard's jobs, decides them
  /// against the catalog the configuration names (read, never written: a previous merged
  /// build makes the shard incremental), renders the stale ones into the part folder, and
  /// writes the part's manifest and then `shard.json`. See ``ShardAssignment``.
  func runShard(_ shard: Shard, onEvent: @escaping @Sendable (BuildEvent) -> Void) throws
    -> BuildReport
  {
    guard options.mode == .build || options.mode == .force else {
      throw ConfigError(
        file: "--shard", line: nil, key: "", message: "only build and --force can be sharded")
    }
    configureVips()
    let part = try ShardPart.resolve(shard, explicit: options.part, workspace: workspace)
    try part.prepare()
    let state = try loadPreviousState(pendingAt: part.pending)
    var found = SourceDiscovery.discover(workspace, cache: state.probeCache.value, width: width)
    let whole = planner().plan(found.sources)
    let plan = whole.part(shard)
    found.problems = found.problems.filter { shard.answersFor($0.path) }
    found.notes = found.notes.filter { shard.answersFor($0.path) }
    let previous = try state.build.value()
    let decision = try decide(plan, found: found, previous: previous, state: state)
    var report = BuildReport(plan: plan, found: found, decision: decision, workspace: workspace)
    for problem in report.problems { onEvent(.problem(problem)) }
    for note in report.notes { onEvent(.note(note)) }
    let writer = CatalogWriter(catalog: part.catalog, config: workspace.config)
    let rendered = try renderAndWrite(
      decision, plan: plan, writer: writer, previous: [:], state: state, onEvent: onEvent,
      report: &report)
    report.cancelled = cancellation.isCancelled
    report.catalog = part.catalog.path
    report.manifest = part.manifest.path
    report.problems.sort()
    guard !report.cancelled else { return report }
    let mine = Set(plan.jobs.flatMap { $0.imageSets.map(\.folder) })
    let others = Set(whole.jobs.flatMap { $0.imageSets.map(\.folder) }).subtracting(mine)
    let (all, written) = Self.entries(decision, rendered: rendered, previous: previous.imageSets)
    // Kept entries of sources that failed to load belong to the shard their asset prefers.
    let entries = all.filter {
      mine.contains($0.folder) || (!others.contains($0.folder) && shard.answersFor($0.asset))
    }
    try ManifestStore.write(
      Manifest(
        toolVersion: ToolVersion.current, libvipsVersion: Vips.version, configHash: configHash,
        catalog: part.catalogName, groups: [], imageSets: entries),
      to: part.manifest)
    let record = ShardRecord(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, index: shard.index,
      count: shard.count, configHash: configHash,
      planDigest: Self.planDigest(whole, unusable: found.unusable),
      providesNamespace: workspace.config.providesNamespace, catalogName: part.catalogName,
      written: written.sorted(),
      carried: entries.map(\.folder).filter { !written.contains($0) }.sorted())
    try record.write(to: part.record)
    state.pending.clear()
    return report
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
