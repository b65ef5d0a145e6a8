internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

/// Stages 2 and 3, discover and plan, as every front door runs them: a build and `check`,
/// a shard (which then keeps its part, ``part(_:)``), `--dry-run` and `serve`'s folder load.
/// `lint` runs the first step of discovery only (``SourceDiscovery/candidates(of:)``).
struct PlannedFolder: Sendable {
  /// What discovery found: the sources, the problems and notes, the probe results to cache.
  var found: SourceDiscovery.Result
  /// Every source's jobs.
  var plan: BuildPlan
  /// The planner used, for plans made later from the same folder (`serve`'s requests).
  let planner: Planner

  /// Which formats the planner may write.
  enum Formats {
    /// Those the configuration's recipes name (a build): asking about others would load
    /// libvips' format modules that the build never needs.
    case named
    /// Every format libvips can write (`serve`, whose requests may ask for any).
    case every
  }

  /// Discovers `workspace` (reading the probe cache once the folder is scanned) and plans
  /// every source, and the set folders carried as they are.
  static func discover(
    _ workspace: Workspace, formats: Formats, cache: () -> ProbeCache, width: Int
  ) -> PlannedFolder {
    let found = SourceDiscovery.discover(workspace, cache: cache, width: width)
    let planner = Planner.current(workspace.config, formats: formats)
    var plan = planner.plan(found.sources)
    let carried = planner.asIsJobs(found.asIs, besides: plan.jobs)
    plan.jobs += carried.jobs
    plan.problems = (plan.problems + carried.problems).sorted()
    return PlannedFolder(found: found, plan: plan, planner: planner)
  }

  /// What one shard of this folder answers for: its jobs (see ``BuildPlan/part(_:)``) and
  /// the problems and notes of the files its names prefer.
  func part(_ shard: Shard) -> PlannedFolder {
    var part = self
    part.plan = plan.part(shard)
    part.found.problems = found.problems.filter { shard.answersFor($0.path) }
    part.found.notes = found.notes.filter { shard.answersFor($0.path) }
    return part
  }
}

extension Planner {
  /// A planner for `config` with this process's libvips: its version and the formats it
  /// can write.
  static func current(_ config: Config, formats: PlannedFolder.Formats) -> Planner {
    switch formats {
    case .named:
      let named = Set(
        config.recipes.values.compactMap { ImageFormat(rawValue: $0.format.rawValue) }
          + (config.web.isOn && config.web.formats.contains(.avif) ? [.avif] : []))
      return Planner(
        config: config, vipsVersion: Vips.version,
        savableFormats: Set(named.filter { Vips.canSave($0) }),
        unsavableReasons: named.contains(.avif) ? [.avif: Vips.avifUnavailableReason ?? ""] : [:])
    case .every:
      return Planner(
        config: config, vipsVersion: Vips.version,
        savableFormats: Set(ImageFormat.allCases.filter { Vips.canSave($0) }))
    }
  }
}
