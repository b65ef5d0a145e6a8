internal import Foundation
internal import Synchronization
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering
internal import Vips

extension BuildEngine {
  /// What rendering one job (one source) gave.
  struct JobOutcome: Sendable {
    /// Manifest entries of the imagesets written.
    var entries: [ManifestImageSet] = []
    /// Stamps of the files written (see ``WrittenImageSet``).
    var stamps: [String: FileStamp] = [:]
    var rendered = 0
    /// Outputs not made (their master or imageset failed).
    var failed = 0
    var problems: [Problem] = []

    /// This outcome with its retry's: the imagesets both wrote, and the retry's failures and
    /// problems (run alone, their messages are its own).
    func retried(with again: JobOutcome) -> JobOutcome {
      JobOutcome(
        entries: entries + again.entries,
        stamps: stamps.merging(again.stamps) { _, later in later },
        rendered: rendered + again.rendered, failed: again.failed, problems: again.problems)
    }
  }

  /// Stage 5: renders the stale imagesets, one job per source, on the work queue, and writes
  /// each imageset as soon as its outputs exist. Jobs with problems are rendered again, one
  /// at a time, for their own error messages (see ``WorkQueue``). Ends `clock`'s stages
  /// "rendering" (while every worker had a job to start) and "rendering, last jobs".
  func renderAndWrite(
    _ decision: Staleness.Outcome, plan: BuildPlan, destination: any BuildDestination,
    previous: [String: ManifestImageSet], state: PreviousState,
    onEvent: @escaping @Sendable (BuildEvent) -> Void, report: inout BuildReport,
    clock: inout PhaseClock
  ) throws -> [JobOutcome] {
    let byJob = Dictionary(grouping: decision.toRender, by: \.jobIndex).mapValues {
      $0.map(\.set)
    }
    let (jobIndices, smallFrom) = Self.order(byJob, plan: plan)
    let total = jobIndices.count
    onEvent(
      .started(jobs: total, outputs: decision.toRender.reduce(0) { $0 + $1.set.outputs.count }))
    for warning in report.warnings { onEvent(.warning(warning)) }
    try state.pending.write(Set(decision.toRender.map(\.set.folder)))
    let renderer = Renderer(
      folder: workspace.folder, failOn: workspace.config.failOn,
      limits: RenderLimits(workspace.config))
    let render = { @Sendable (index: Int, sets: [PlannedImageSet]) in
      Self.renderJob(
        plan.jobs[index], sets: sets, renderer: renderer, destination: destination,
        previous: previous)
    }
    let done = Atomic<Int>(0)
    let drainedAt = Mutex<PhaseClock.Reading?>(nil)
    let results = WorkQueue(width: width).run(
      jobIndices, cancellation: cancellation, smallFrom: smallFrom
    ) { index in
      render(index, byJob[index]!)
    } completed: { position, _ in
      let count = done.add(1, ordering: .relaxed).newValue
      let asset = plan.jobs[jobIndices[position]].source.qualifiedName
      onEvent(.jobFinished(asset: asset, done: count, total: total))
    } beforeSmall: {
      Vips.returnFreeMemory()
    } drained: {
      let now = PhaseClock.Reading.now()
      drainedAt.withLock { $0 = now }
    } retrySerially: { index, first in
      guard !first.problems.isEmpty else { return nil }
      let written = Set(first.entries.map(\.folder))
      let again = render(index, byJob[index]!.filter { !written.contains($0.folder) })
      return first.retried(with: again)
    }
    let tailStart = drainedAt.withLock { $0 } ?? .now()
    onEvent(.phase(clock.lap("rendering", at: tailStart)))
    onEvent(.phase(clock.lap("rendering, last jobs")))
    let outcomes = results.compactMap { $0 }
    Self.tally(outcomes, into: &report, onEvent: onEvent)
    return outcomes
  }

  /// Adds the jobs' counts and problems to the report (and reports each problem).
  static func tally(
    _ outcomes: [JobOutcome], into report: inout BuildReport,
    onEvent: @Sendable (BuildEvent) -> Void
  ) {
    for outcome in outcomes {
      for problem in outcome.problems { onEvent(.problem(problem)) }
      report.rendered += outcome.rendered
      report.failedOutputs += outcome.failed
      report.problems += outcome.problems
    }
  }

  /// The jobs to render, biggest first, so the build does not end with one core finishing a
  /// large photo alone (the order changes nothing in the outputs); and the position where
  /// the jobs under an eighth of the largest begin (flags after photos), before which each
  /// worker gives the large jobs' freed memory back, so that what the small ones add is not
  /// stacked on it (a lower peak RSS, in the same time).
  static func order(_ byJob: [Int: [PlannedImageSet]], plan: BuildPlan)
    -> (jobs: [Int], smallFrom: Int?)
  {
    let costs = byJob.map { ($0.key, estimatedCost(of: plan.jobs[$0.key], sets: $0.value)) }
      .sorted { ($0.1, $1.0) > ($1.1, $0.0) }
    let largest = costs.first?.1 ?? 0
    return (costs.map(\.0), costs.firstIndex { $0.1 * 8 < largest })
  }

  /// A rough measure of a job's work, to start the biggest jobs first: the pixels of each
  /// master it decodes plus the pixels of each output it resizes. (A large photo started
  /// last would leave the other cores idle at the end of the build.)
  static func estimatedCost(of job: Job, sets: [PlannedImageSet]) -> Int {
    let outputs = sets.flatMap(\.outputs).filter { $0.mode != .copy }
    let decoded = Set(outputs.map(\.master))
    let masters = job.source.allMasters.filter {
      decoded.contains($0.path)
    }
    return masters.reduce(0) { $0 + $1.pixelSize.width * $1.pixelSize.height }
      + outputs.reduce(0) { $0 + $1.resizeTo.width * $1.resizeTo.height }
  }

  /// Renders one job and writes `sets` (those of its imagesets that are stale), each one whose
  /// every output was made.
  ///
  /// Every output of the job is rendered, even of imagesets not written: how the master is
  /// decoded (shrink-on-load, a half-size copy) depends on all of them, so an imageset gets
  /// the same bytes whichever of its siblings are stale (see ``ImageSetKeyMaker``).
  static func renderJob(
    _ job: Job, sets: [PlannedImageSet], renderer: Renderer, destination: any BuildDestination,
    previous: [String: ManifestImageSet]
  ) -> JobOutcome {
    var outcome = JobOutcome()
    let work = job.imageSets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
    let result = renderer.render(work, masters: job.source.allMasters)
    outcome.problems = result.problems
    let byPath = Dictionary(
      result.files.map { ($0.output.path, $0) }, uniquingKeysWith: { a, _ in a })
    for set in sets {
      let files = set.outputs.compactMap { byPath[$0.path] }
      guard files.count == set.outputs.count else {
        outcome.failed += set.outputs.count - files.count
        continue
      }
      do {
        let written = try destination.write(
          set: set, source: job.source, files: files, previous: previous[set.folder])
        outcome.entries.append(written.entry)
        outcome.stamps.merge(written.stamps) { _, later in later }
        outcome.rendered += files.count
      } catch {
        outcome.failed += files.count
        outcome.problems.append(
          Problem(path: set.folder, reason: "cannot write: \(error.localizedDescription)"))
      }
    }
    return outcome
  }
}
