internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

extension BuildEngine {
  /// Stage 4: compares the plan with the previous build and the catalog on disk, in the run's
  /// mode (see ``Staleness``).
  func decide(
    _ plan: BuildPlan, found: SourceDiscovery.Result, previous: PreviousBuild,
    state: PreviousState
  ) throws(ConfigError) -> Staleness.Outcome {
    let changedSince = configurationChanged(since: previous.manifest)
    return Staleness(
      workspace: workspace, previous: previous.imageSets, cache: state.probeCache,
      mode: options.mode, selection: try Staleness.selection(for: options.mode),
      pending: state.pendingAtStart, adopt: options.adopt,
      ownedGroups: Set(previous.manifest?.groups ?? []),
      keyChange: previous.manifest.flatMap(keyChange(since:)),
      recipesBefore: changedSince?.recipes ?? [:],
      settingsChange: changedSince?.settings.map {
        KeySettingsChange(before: $0, now: workspace.config.keySettings)
      },
      failedBefore: Dictionary(
        (previous.manifest?.failed ?? []).map { ($0.path, $0.reason) },
        uniquingKeysWith: { a, _ in a })
    ).evaluate(plan: plan, unusable: found.unusable)
  }

  /// `manifest`, when the same ThumbForge wrote it for another configuration (nil
  /// otherwise): its recorded settings then name what changed.
  private func configurationChanged(since manifest: Manifest?) -> Manifest? {
    guard let manifest, manifest.toolVersion == ToolVersion.current,
      manifest.configHash != configHash
    else { return nil }
    return manifest
  }

  /// What changed for every imageset since `manifest` was written: ThumbForge, libvips or
  /// the configuration file (nil: none of them).
  func keyChange(since manifest: Manifest) -> String? {
    if manifest.toolVersion != ToolVersion.current {
      return "ThumbForge changed (\(manifest.toolVersion) → \(ToolVersion.current))"
    }
    if manifest.libvipsVersion != Vips.version {
      return "libvips changed (\(manifest.libvipsVersion) → \(Vips.version))"
    }
    if manifest.configHash != configHash {
      return "the configuration changed (\(workspace.configFile?.lastPathComponent ?? "now none"))"
    }
    return nil
  }
}

extension BuildReport {
  /// The report as far as planning and deciding tell: problems found so far, outputs
  /// skipped or made with a caveat, and those already up to date.
  init(
    plan: BuildPlan, found: SourceDiscovery.Result, decision: Staleness.Outcome,
    destination: any BuildDestination
  ) {
    self.init()
    catalog = destination.catalog.path
    manifest = destination.state.manifest.path
    problems = found.problems + plan.problems + decision.unmatched + decision.foreign
    notes = found.notes
    let sets = plan.jobs.flatMap(\.imageSets)
    skipped = sets.reduce(0) { $0 + $1.skipped.count }
    warnings = sets.flatMap(\.notices)
    unchanged = decision.upToDate.reduce(0) { $0 + $1.outputs }
  }

  /// `check` without a manifest: imagesets already in the catalog are not ThumbForge's as far
  /// as it can tell, which is nearly always a manifest that was not committed with the
  /// catalog. One problem says so (with the count and one example), instead of one per
  /// imageset.
  func problemsWithoutManifest(foreign: [Problem]) -> [Problem] {
    guard let first = foreign.min() else { return problems }
    let kept = Set(foreign)
    let others = problems.filter { !kept.contains($0) }
    let count = foreign.count
    let name = URL(fileURLWithPath: manifest).lastPathComponent
    let hint = Problem(
      path: manifest,
      reason:
        "no \(name), but the catalog already holds \(count) imageset\(count == 1 ? "" : "s") that this folder's build makes (e.g. \(first.path)); "
        + "commit \(name) with the catalog (a build writes it beside the catalog), "
        + "or run 'thumbforge build --adopt' once to take them over")
    return others + [hint]
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
