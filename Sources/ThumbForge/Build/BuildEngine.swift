internal import Foundation
internal import Synchronization
package import ThumbForgeBasics
package import ThumbForgeCatalog
package import ThumbForgeConfig
package import ThumbForgePlanning
internal import Vips

/// Runs a build, a check or a regenerate: discover → plan → diff with the manifest → render
/// the stale jobs on the work queue → write the catalog → write the manifest last.
package struct BuildEngine: Sendable {
  package var options: BuildOptions
  package var workspace: Workspace
  package var cancellation: CancellationFlag

  package init(options: BuildOptions, cancellation: CancellationFlag = CancellationFlag())
    throws(ConfigError)
  {
    self.options = options
    self.workspace = try Workspace.resolve(options)
    self.cancellation = cancellation
  }

  /// The default number of parallel jobs: one per core, with libvips itself single-threaded
  /// (the fastest setting in the benchmarks; see docs/performance.md).
  package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  var width: Int {
    options.jobs
      ?? (workspace.config.concurrency > 0 ? workspace.config.concurrency : Self.defaultJobs)
  }

  /// Discovers and plans without rendering (for `--dry-run`).
  package func plan() -> BuildPlan {
    configureVips()
    let cache = ProbeCache.read(at: workspace.state.probeCache)
    let folder = PlannedFolder.discover(workspace, formats: .named, cache: { cache }, width: width)
    var plan = folder.plan
    if let shard = options.shard { plan = plan.part(shard) }
    plan.problems = (folder.found.problems + plan.problems).sorted()
    return plan
  }

  /// Runs the build in the options' mode: load what the last run left → discover → plan →
  /// decide what is stale → (`check` stops here) render and write → commit (the manifest,
  /// group folders, caches and accessors; and the contact sheet, when asked for). Where the
  /// rendered imagesets go and how the run is recorded is the destination's
  /// (``destination()``): the catalog, or a shard's part folder. Each stage's end is an
  /// event (``BuildEvent/phase(_:)``), for `--timings`.
  package func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws
    -> BuildReport
  {
    var clock = PhaseClock()
    let destination = try destination()
    configureVips()
    try destination.prepare()
    let state = try loadPreviousState(destination)
    onEvent(.phase(clock.lap("previous state")))
    let whole = PlannedFolder.discover(
      workspace, formats: .named, cache: { state.probeCache }, width: width)
    onEvent(.phase(clock.lap("discovery")))
    let planned = destination.select(whole)
    let previous = try state.build.get()
    let decision = try decide(planned.plan, found: planned.found, previous: previous, state: state)
    onEvent(.phase(clock.lap("decisions")))
    var report = BuildReport(
      plan: planned.plan, found: planned.found, decision: decision, destination: destination)
    if options.mode == .check {
      let checked = check(report, decision, state, planned, previous, onEvent)
      onEvent(.phase(clock.lap("comparison")))
      return checked
    }
    for problem in report.problems { onEvent(.problem(problem)) }
    for note in report.notes { onEvent(.note(note)) }
    for orphan in decision.orphans { report.removed += destination.remove(orphan) }
    let rendered = try renderAndWrite(
      decision, plan: planned.plan, destination: destination,
      previous: destination.holdsPreviousBuild ? previous.imageSets : [:], state: state,
      onEvent: onEvent, report: &report, clock: &clock)
    report.cancelled = cancellation.isCancelled
    let manifest = try destination.commit(
      FinishedRun(
        engine: self, whole: whole, planned: planned, previous: previous, state: state,
        decision: decision, rendered: rendered, cancelled: report.cancelled))
    if let manifest, let sheet = options.contactSheet {
      report.problems += writeContactSheet(of: manifest, to: sheet)
    }
    onEvent(.phase(clock.lap("commit")))
    report.problems.sort()
    Self.discardInBackground(state, whole, previous, decision, rendered, manifest)
    return report
  }

  /// Where this run writes: the catalog, or the part folder of `--shard` (a build or
  /// `--force` only).
  func destination() throws(ConfigError) -> any BuildDestination {
    guard let shard = options.shard else { return CatalogDestination(workspace: workspace) }
    guard options.mode == .build || options.mode == .force else {
      throw ConfigError(
        file: "--shard", line: nil, key: "", message: "only build and --force can be sharded")
    }
    return try ShardPartDestination(shard: shard, explicit: options.part, workspace: workspace)
  }

  /// `check`'s end of the run: the report of every difference, the manifest and accessors
  /// included, and nothing written.
  private func check(
    _ report: BuildReport, _ decision: Staleness.Outcome, _ state: PreviousState,
    _ planned: PlannedFolder, _ previous: PreviousBuild,
    _ onEvent: @escaping @Sendable (BuildEvent) -> Void
  ) -> BuildReport {
    var report = report
    if previous.manifest == nil {
      report.problems = report.problemsWithoutManifest(foreign: decision.foreign)
    }
    for problem in report.problems { onEvent(.problem(problem)) }
    for note in report.notes { onEvent(.note(note)) }
    Self.discardInBackground(state, planned, previous, decision)
    var checked = report.checked(decision)
    checked.stale += stateFileDifferences(
      decision, previous: previous, catalogUpToDate: checked.stale.isEmpty)
    return checked
  }

  /// Frees a run's large values on another thread: the previous manifest, the plan and the
  /// decision are tens of thousands of small allocations, and freeing them took a large part
  /// of a no-change run of many sources on the thread that has to finish the run. (A
  /// process that exits meanwhile simply does not wait for it.)
  static func discardInBackground<each Value: Sendable>(_ values: repeat each Value) {
    let box = (repeat each values)
    DispatchQueue.global(qos: .utility).async { withExtendedLifetime(box) {} }
  }

  var configHash: String {
    guard let file = workspace.configFile,
      let data = FileManager.default.contents(atPath: file.path)
    else { return "" }
    return ContentHash.of(data)
  }

  func configureVips() {
    // One image per core from our queue and one malloc arena per job, plus the main thread's.
    Vips.configureForImageWork(threads: width + 1)
  }

}
