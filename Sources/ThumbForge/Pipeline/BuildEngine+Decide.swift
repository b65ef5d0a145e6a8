internal import Foundation

extension BuildEngine {
  /// Stage 4: compares the plan with the previous build and the catalog on disk, in the run's
  /// mode (see ``Staleness``).
  func decide(
    _ plan: BuildPlan, found: SourceDiscovery.Result, previous: PreviousBuild,
    state: PreviousState
  ) throws(ConfigError) -> Staleness.Outcome {
    Staleness(
      workspace: workspace, previous: previous.imageSets, cache: state.probeCache.value(),
      mode: options.mode, selection: try Staleness.selection(for: options.mode),
      pending: state.pendingAtStart, adopt: options.adopt,
      ownedGroups: Set(previous.manifest?.groups ?? []), onDisk: previous.files
    ).evaluate(plan: plan, unusable: found.unusable)
  }
}

extension BuildReport {
  /// The report as far as planning and deciding tell: problems found so far, outputs
  /// skipped or made with a caveat, and those already up to date.
  init(
    plan: BuildPlan, found: SourceDiscovery.Result, decision: Staleness.Outcome,
    workspace: Workspace
  ) {
    self.init()
    catalog = workspace.catalog.path
    manifest = workspace.manifest.path
    problems = found.problems + plan.problems + decision.unmatched + decision.foreign
    notes = found.notes
    let sets = plan.jobs.flatMap(\.imageSets)
    skipped = sets.reduce(0) { $0 + $1.skipped.count }
    warnings = sets.flatMap { set in (set.warnings + set.skipped).map { "\(set.folder): \($0)" } }
    unchanged = decision.upToDate.reduce(0) { $0 + $1.outputs }
  }

  /// The report of `check`: every difference, sorted.
  func checked(_ decision: Staleness.Outcome) -> BuildReport {
    var report = self
    report.stale =
      (decision.toRender.flatMap(\.reasons) + decision.groups
      + decision.orphans.map {
        StaleItem(kind: .orphaned, path: $0.folder, detail: "its source is gone")
      }).sorted()
    report.problems.sort()
    return report
  }
}
