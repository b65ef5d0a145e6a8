internal import Foundation
internal import Synchronization
internal import Vips

/// Runs a build, a check or a regenerate: discover → plan → diff with the manifest → render
/// the stale jobs on the work queue → write the catalog → write the manifest last.
public struct BuildEngine: Sendable {
  public var options: BuildOptions
  public var workspace: Workspace
  public var cancellation: CancellationFlag

  public init(options: BuildOptions, cancellation: CancellationFlag = CancellationFlag())
    throws(ConfigError)
  {
    self.options = options
    self.workspace = try Workspace.resolve(options)
    self.cancellation = cancellation
  }

  /// The default number of parallel jobs: one per core, with libvips itself single-threaded
  /// (measured fastest on 2 cores; see the README).
  public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  var width: Int {
    options.jobs
      ?? (workspace.config.concurrency > 0 ? workspace.config.concurrency : Self.defaultJobs)
  }

  /// Discovers and plans without rendering (for `--dry-run`).
  public func plan() -> BuildPlan {
    configureVips()
    let cache = ProbeCache.read(at: workspace.probeCache)
    let found = SourceDiscovery.discover(workspace, cache: cache, width: width)
    var plan = planner().plan(found.sources)
    if let shard = options.shard { plan = plan.part(shard) }
    plan.problems = (found.problems + plan.problems).sorted()
    return plan
  }

  /// Runs the build in the options' mode: load what the last run left → discover → plan →
  /// decide what is stale → (`check` stops here) render and write → commit the manifest,
  /// group folders, caches and accessors (and the contact sheet, when asked for).
  public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws
    -> BuildReport
  {
    if let shard = options.shard { return try runShard(shard, onEvent: onEvent) }
    configureVips()
    let state = try loadPreviousState()
    let found = SourceDiscovery.discover(workspace, cache: state.probeCache.value, width: width)
    let plan = planner().plan(found.sources)
    let previous = try state.build.value()
    let decision = try decide(plan, found: found, previous: previous, state: state)
    var report = BuildReport(plan: plan, found: found, decision: decision, workspace: workspace)
    if options.mode == .check && previous.manifest == nil {
      report.problems = report.problemsWithoutManifest(foreign: decision.foreign)
    }
    for problem in report.problems { onEvent(.problem(problem)) }
    for note in report.notes { onEvent(.note(note)) }
    if options.mode == .check {
      Self.discardInBackground(state, found, plan, previous, decision)
      var checked = report.checked(decision)
      checked.stale += stateFileDifferences(
        decision, previous: previous, catalogUpToDate: checked.stale.isEmpty)
      return checked
    }

    let writer = CatalogWriter(catalog: workspace.catalog, config: workspace.config)
    for orphan in decision.orphans { report.removed += writer.remove(orphan) }
    let rendered = try renderAndWrite(
      decision, plan: plan, writer: writer, previous: previous.imageSets, state: state,
      onEvent: onEvent, report: &report)
    report.cancelled = cancellation.isCancelled
    let manifest = try commit(
      decision, rendered: rendered, previous: previous, state: state, found: found,
      writer: writer)
    if let sheet = options.contactSheet {
      report.problems += writeContactSheet(of: manifest, to: sheet)
    }
    report.problems.sort()
    Self.discardInBackground(state, found, plan, previous, decision, rendered, manifest)
    return report
  }

  /// Frees a run's large values on another thread: the previous manifest, the plan and the
  /// decision are tens of thousands of small allocations, and freeing them took about a tenth
  /// of a no-change run of 10 000 sources on the thread that has to finish the run. (A
  /// process that exits meanwhile simply does not wait for it.)
  static func discardInBackground<each Value: Sendable>(_ values: repeat each Value) {
    let box = (repeat each values)
    DispatchQueue.global(qos: .utility).async { withExtendedLifetime(box) {} }
  }

  var pendingURL: URL {
    workspace.manifest.deletingLastPathComponent().appendingPathComponent(
      ".thumbforge-pending.json")
  }

  var configHash: String {
    guard let file = workspace.configFile,
      let data = FileManager.default.contents(atPath: file.path)
    else { return "" }
    return ContentHash.of(data)
  }

  func planner() -> Planner {
    // Only the formats recipes name are asked about: asking loads libvips' format modules
    // for formats it does not write itself (HEIF), which builds without them never need.
    let named = Set(
      workspace.config.recipes.values.compactMap { ImageFormat(rawValue: $0.format.rawValue) })
    return Planner(
      config: workspace.config, vipsVersion: Vips.version,
      savableFormats: Set(named.filter { Vips.canSave($0) }),
      unsavableReasons: named.contains(.avif)
        ? [.avif: Vips.avifUnavailableReason ?? ""] : [:])
  }

  func configureVips() {
    // One image per core from our queue; libvips itself single-threaded (see README), even
    // with one job: libvips 8.14's threaded sinks sometimes lose a loader's error (a
    // truncated PNG decoded with two threads "succeeded" in 5 of 30 runs, with one thread in
    // none), and a damaged master must be refused every time.
    Vips.concurrency = 1
    Vips.setOperationCache(maxOperations: 0)
    // One malloc arena per job (plus the main thread's), and large-buffer thresholds suited
    // to images: see Vips.tuneAllocator.
    Vips.tuneAllocator(arenas: width + 1)
  }

}
