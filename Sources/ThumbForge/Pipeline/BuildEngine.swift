public import Foundation
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
    let cache = ProbeCache.read(at: workspace.cache)
    let found = SourceDiscovery.discover(workspace, cache: cache, width: width)
    var plan = planner().plan(found.sources)
    plan.problems = (found.problems + plan.problems).sorted()
    return plan
  }

  /// Runs the build (or, with `checkOnly`, only compares).
  public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws
    -> BuildReport
  {
    configureVips()
    var report = BuildReport()
    report.catalog = workspace.catalog.path
    report.manifest = workspace.manifest.path
    // The file cache, the manifest and the state of the files it lists load on other
    // threads while the asset folder is scanned and planned.
    let cacheLoading = BackgroundTask { [workspace] in ProbeCache.read(at: workspace.cache) }
    let loading = BackgroundTask { [workspace] () throws(ConfigError) in
      try PreviousBuild.load(workspace)
    }
    let pending = PendingList(url: pendingURL)
    // Temporary files only outlive a run that was killed, which leaves its pending list.
    // (An unreadable manifest stops the run first.)
    if !(options.mode == .check) && pending.exists {
      _ = try loading.value()
      AtomicFile.sweep(folder: workspace.catalog.path)
    }
    // The manifest, the caches and the accessors file are written beside the catalog, some
    // after the pending list is cleared: look there (one folder listing) on every run.
    if !(options.mode == .check) {
      var folders = [workspace.manifest.deletingLastPathComponent().path]
      if let swiftFile = workspace.swiftFile {
        folders.append(swiftFile.deletingLastPathComponent().path)
      }
      for folder in Set(folders) { AtomicFile.sweep(folder: folder, recursive: false) }
    }
    let found = SourceDiscovery.discover(workspace, cache: cacheLoading.value, width: width)
    var cache = cacheLoading.value()
    let originalCache = cache
    cache.sources = found.cache
    let plan = planner().plan(found.sources)
    let previousBuild = try loading.value()
    let manifest = previousBuild.manifest
    let previous = previousBuild.imageSets
    report.problems = (found.problems + plan.problems)
    var regenerate: [Glob] = []
    for pattern in options.mode.patterns {
      do { regenerate.append(try Glob(pattern)) } catch {
        throw ConfigError(file: "regenerate", line: nil, key: "", message: error.message)
      }
    }
    // Folders a killed run was writing (imagesets and group folders): still ours.
    let pendingAtStart = pending.read()
    var outcome = Staleness(
      workspace: workspace, previous: previous, cache: cache, force: (options.mode == .force),
      regenerate: regenerate,
      pending: pendingAtStart, adopt: options.adopt, onDisk: previousBuild.files
    ).evaluate(plan: plan, unusable: found.unusable)
    if !regenerate.isEmpty {
      // regenerate renders exactly the named assets and leaves everything else as it is.
      let matches = { (job: Job) in
        regenerate.contains { $0.matches(job.source.qualifiedName) || $0.matches(job.source.name) }
      }
      for decision in outcome.toRender where !matches(plan.jobs[decision.jobIndex]) {
        if let entry = previous[decision.set.folder] { outcome.kept.append(entry) }
      }
      outcome.toRender.removeAll { !matches(plan.jobs[$0.jobIndex]) }
      outcome.kept += outcome.orphans
      outcome.orphans = []
      for (pattern, glob) in zip(options.mode.patterns, regenerate)
      where !plan.jobs.contains(where: {
        glob.matches($0.source.qualifiedName) || glob.matches($0.source.name)
      }) {
        report.problems.append(Problem(path: pattern, reason: "no asset matches this name"))
      }
    }
    report.problems += outcome.foreign
    report.skipped = plan.jobs.reduce(0) { $0 + $1.imageSets.reduce(0) { $0 + $1.skipped.count } }
    report.warnings = plan.jobs.flatMap { job in
      job.imageSets.flatMap { set in (set.warnings + set.skipped).map { "\(set.folder): \($0)" } }
    }
    report.unchanged = outcome.upToDate.reduce(0) { $0 + $1.set.outputs.count }
    for problem in report.problems { onEvent(.problem(problem)) }

    if (options.mode == .check) {
      report.stale =
        (outcome.toRender.flatMap { $0.reasons }
        + outcome.orphans.map {
          StaleItem(kind: .orphaned, path: $0.folder, detail: "its source is gone")
        }).sorted()
      report.problems.sort()
      return report
    }

    // Remove what ThumbForge made from sources that are gone.
    let writer = CatalogWriter(catalog: workspace.catalog, config: workspace.config)
    for orphan in outcome.orphans { report.removed += writer.remove(orphan) }

    // Render stale imagesets, one job per source.
    let byJob = Dictionary(grouping: outcome.toRender, by: { $0.jobIndex })
    // Biggest first, so the build does not end with one core finishing a large photo alone;
    // the order changes nothing in the outputs.
    let costs = byJob.mapValues {
      Self.estimatedCost(of: plan.jobs[$0[0].jobIndex], sets: $0.map(\.set))
    }
    let jobIndices = byJob.keys.sorted { (costs[$0]!, $1) > (costs[$1]!, $0) }
    let total = jobIndices.count
    onEvent(
      .started(jobs: total, outputs: outcome.toRender.reduce(0) { $0 + $1.set.outputs.count }))
    for warning in report.warnings { onEvent(.warning(warning)) }
    try pending.write(Set(outcome.toRender.map { $0.set.folder }))
    let renderer = Renderer(folder: workspace.folder, failOn: workspace.config.failOn)
    let done = Atomic<Int>(0)
    let parallelResults = WorkQueue(width: width).run(jobIndices, cancellation: cancellation) {
      index in
      Self.renderJob(
        plan.jobs[index], sets: byJob[index]!.map { $0.set }, renderer: renderer, writer: writer,
        previous: previous)
    } completed: { index, result in
      let count = done.add(1, ordering: .relaxed).newValue
      onEvent(
        .jobFinished(
          asset: plan.jobs[jobIndices[index]].source.qualifiedName, done: count, total: total))
    }
    report.cancelled = cancellation.isCancelled
    // libvips' error buffer is process-wide: jobs failing at the same moment can swap or lose
    // messages. Render failed jobs again, one at a time, for their own reasons.
    var results = parallelResults
    for (position, result) in results.enumerated()
    where result.map({ !$0.problems.isEmpty }) == true {
      let index = jobIndices[position]
      let written = Set(result!.entries.map(\.folder))
      let again = Self.renderJob(
        plan.jobs[index],
        sets: byJob[index]!.map { $0.set }.filter { !written.contains($0.folder) },
        renderer: renderer, writer: writer, previous: previous)
      results[position] = JobOutcome(
        entries: result!.entries + again.entries, rendered: result!.rendered + again.rendered,
        failed: again.failed, problems: again.problems)
    }
    for result in results.compactMap({ $0 }) {
      for problem in result.problems { onEvent(.problem(problem)) }
    }

    // Assemble the new manifest: fresh entries, up-to-date entries, and old entries of
    // imagesets that were not (successfully) rendered this run.
    var entries: [String: ManifestImageSet] = [:]
    for item in outcome.upToDate { entries[item.set.folder] = item.entry }
    for entry in outcome.kept { entries[entry.folder] = entry }
    for decision in outcome.toRender {
      if let old = previous[decision.set.folder] { entries[decision.set.folder] = old }
    }
    var writtenFolders = Set<String>()
    for result in results.compactMap({ $0 }) {
      for entry in result.entries {
        entries[entry.folder] = entry
        writtenFolders.insert(entry.folder)
      }
      report.rendered += result.rendered
      report.failed += result.failed
      report.problems += result.problems
    }
    let groups = Set(entries.values.map(\.group).filter { !$0.isEmpty })
    let usedGroups = Set(
      groups.flatMap { group in (1...group.count).map { group.prefix($0).joined(separator: "/") } })
    // Group folders are written after the imagesets and before the manifest: record the
    // new ones first, so a run killed in between still knows them as its own next time.
    let ownedGroups = Set(manifest?.groups ?? []).union(pendingAtStart.intersection(usedGroups))
    let newGroups = usedGroups.filter {
      !FileManager.default.fileExists(
        atPath: workspace.catalog.appendingPathComponent($0 + "/Contents.json").path)
    }
    try pending.write(newGroups)
    let written = try writer.writeFolders(groups: groups, owned: ownedGroups)
    writer.removeGroups(ownedGroups.subtracting(usedGroups))
    let newManifest = Manifest(
      toolVersion: ToolVersion.current, libvipsVersion: Vips.version, configHash: configHash,
      catalog: workspace.catalogRelativeToManifest,
      groups: Array(written.union(ownedGroups.intersection(usedGroups))),
      imageSets: Array(entries.values))
    // The manifest file's facts to record in a new manifest cache (nil: the cache is current).
    var manifestCacheFacts = previousBuild.staleCacheFacts
    if newManifest != manifest || !FileManager.default.fileExists(atPath: workspace.manifest.path) {
      try ManifestStore.write(newManifest, to: workspace.manifest)
      manifestCacheFacts = FileFacts.current(at: workspace.manifest.path)
    }
    if let manifestCacheFacts {
      try? ManifestCache.write(newManifest, to: workspace.manifestCache, facts: manifestCacheFacts)
    }
    pending.clear()
    if let swiftFile = workspace.swiftFile {
      try writeAccessors(newManifest, to: swiftFile)
    }
    // Stamps taken before rendering describe the files this run replaced: imagesets written
    // now are stamped afresh (with the hashes of the bytes just written), so the next run
    // does not hash them again.
    cache.outputs = outcome.stamps
    for entry in newManifest.imageSets {
      let written = writtenFolders.contains(entry.folder)
      for output in entry.outputs where written || cache.outputs[output.path] == nil {
        if let stat = FileStamp.current(
          at: workspace.catalog.appendingPathComponent(output.path).path)
        {
          cache.outputs[output.path] = FileStamp(
            byteSize: stat.byteSize, modified: stat.modified, hash: output.hash)
        }
      }
      let contents = entry.folder + "/Contents.json"
      if written || cache.outputs[contents] == nil,
        let stat = FileStamp.current(at: workspace.catalog.appendingPathComponent(contents).path)
      {
        cache.outputs[contents] = FileStamp(
          byteSize: stat.byteSize, modified: stat.modified, hash: entry.contentsHash)
      }
    }
    if cache != originalCache { try? cache.write(to: workspace.cache) }
    report.problems.sort()
    return report
  }

  private var pendingURL: URL {
    workspace.manifest.deletingLastPathComponent().appendingPathComponent(
      ".thumbforge-pending.json")
  }

  private var configHash: String {
    guard let file = workspace.configFile,
      let data = FileManager.default.contents(atPath: file.path)
    else { return "" }
    return ContentHash.of(data)
  }

  private func planner() -> Planner {
    // Only the formats recipes name are asked about: asking loads libvips' format modules
    // for formats it does not write itself (HEIF), which builds without them never need.
    let named = Set(
      workspace.config.recipes.values.compactMap { ImageFormat(rawValue: $0.format.rawValue) })
    return Planner(
      config: workspace.config, vipsVersion: Vips.version,
      savableFormats: Set(named.filter { Vips.canSave($0) }))
  }

  private func configureVips() {
    // One image per core from our queue; libvips itself single-threaded (see README).
    if width > 1 { Vips.concurrency = 1 }
    Vips.setOperationCache(maxOperations: 0)
    // One malloc arena per job (plus the main thread's), and large-buffer thresholds suited
    // to images: see Vips.tuneAllocator.
    Vips.tuneAllocator(arenas: width + 1)
  }

}
