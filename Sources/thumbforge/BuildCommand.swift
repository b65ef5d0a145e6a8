import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgePlanning

/// `thumbforge build`: the main job.
struct BuildCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract:
      "Render every stale output of an asset folder into the catalog and write the manifest.",
    discussion: """
      Exit codes: 0 success (warnings allowed), 1 some masters or outputs failed, 2 usage or \
      configuration error, 130 interrupted (Ctrl-C or SIGTERM: files in progress are finished \
      and the manifest is written). With --watch: runs until Ctrl-C or SIGTERM; a \
      configuration that does not load is reported and watching goes on; the exit code is \
      then the last build's (2 if the configuration was left broken), 130 if the signal \
      interrupted a build.
      """)

  @Argument(help: "The asset folder.", completion: .directory)
  var folder: String = "Assets"

  @OptionGroup var common: CommonOptions

  @Flag(name: .long, help: "Render everything, even what is up to date.")
  var force = false

  @Flag(name: .long, help: "Print the plan and write nothing.")
  var dryRun = false

  @Flag(name: .long, help: "Take over existing imagesets that ThumbForge did not create.")
  var adopt = false

  @Flag(
    name: .long, help: "Keep running and rebuild when the folder changes (polls once a second).")
  var watch = false

  @Option(
    name: .long,
    help: "Also write a contact sheet PNG of every output (and placeholder) to this file.")
  var contactSheet: String?

  @Option(name: .long, help: "Write Swift constants for every asset name to this file.")
  var swift: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Build only shard I of N (1-based, e.g. 2/4) into a part folder for 'thumbforge merge'.",
      discussion: "Also read from THUMBFORGE_SHARD=I/N.", valueName: "I/N"))
  var shard: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Build shard JOB_COMPLETION_INDEX+1 of N (a Kubernetes Indexed Job).", valueName: "N"))
  var shards: Int?

  @Option(
    name: .long,
    help: "The shard's part folder (default: shards/I-of-N beside the manifest).",
    completion: .directory)
  var part: String?

  func validate() throws {
    try common.validate(folder: folder)
    if shard != nil && shards != nil {
      throw ValidationError("give either --shard I/N or --shards N, not both")
    }
    if let shard {
      do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) }
    }
    if let shards {
      // (JOB_COMPLETION_INDEX, the environment's part, is checked when the command runs.)
      do { _ = try Shard(index: 1, count: shards) } catch { throw ValidationError(error.message) }
    }
    if dryRun && common.timings {
      throw ValidationError("--timings times a build's stages; --dry-run only plans")
    }
    let sharded = shard != nil || shards != nil
    if part != nil && !sharded { throw ValidationError("--part needs --shard I/N or --shards N") }
    if sharded && (watch || contactSheet != nil || swift != nil) {
      throw ValidationError(
        "--watch, --contact-sheet and --swift do not apply to a shard (merge writes the catalog)")
    }
  }

  func run() throws {
    common.applyDiagnostics()
    var options = common.buildOptions(folder: folder)
    if force { options.mode = .force }
    options.adopt = adopt
    options.swiftFile = swift.map { URL(fileURLWithPath: $0) }
    options.contactSheet = contactSheet.map { URL(fileURLWithPath: $0) }
    do {
      options.shard = try Shard.resolve(
        explicit: shard, count: shards, environment: ProcessInfo.processInfo.environment)
    } catch {
      // THUMBFORGE_SHARD or JOB_COMPLETION_INDEX: not about the command line.
      throw CommandFailure(error.message)
    }
    options.part = part.map { URL(fileURLWithPath: $0) }
    if dryRun {
      let plan = try Runner.engine(options, common: common, command: "build").plan()
      print(common.json ? PlanPrinter.json(plan) : PlanPrinter.text(plan), terminator: "")
      throw ExitCode(plan.problems.isEmpty ? 0 : 1)
    }
    guard watch else {
      let engine = try Runner.engine(options, common: common, command: "build")
      throw ExitCode(try Runner.build(engine, common: common, command: "build"))
    }
    throw ExitCode(try watchFolder(options))
  }

  /// `--watch`: a build now and after every change, until Ctrl-C or SIGTERM; returns the
  /// exit code (the last build's, or 130 when the signal interrupted a build).
  private func watchFolder(_ options: BuildOptions) throws -> Int32 {
    let cancellation = CancellationFlag()
    let signals = SignalHandler(
      cancellation: cancellation,
      message: "stopping the watch (files in progress are finished first)…")
    defer { signals.restore() }
    let watch = Watch(options: options, cancellation: cancellation)
    var status = WatchStatus(quiet: common.quiet, json: common.json, trigger: nil)
    let folder = options.folder.standardizedFileURL.path
    let configs = watch.configFiles.map(\.lastPathComponent)
    let banner =
      "watching \(folder) and its configuration (\(configs.joined(separator: ", "))); "
      + "a build now and after every change; Ctrl-C to stop"
    if !common.quiet {
      if common.json {
        FileHandle.standardError.write(Data((banner + "\n").utf8))
      } else {
        print(banner)
      }
    }
    var code: Int32 = 0
    try watch.run { event in
      switch event {
      case .changed(let paths):
        // The configuration first: it is what a person saved last, nearly always.
        let ordered =
          paths.filter { configs.contains($0) } + paths.filter { !configs.contains($0) }
        status.trigger = WatchStatus.describe(ordered)
      case .configurationError(let error):
        code = 2
        Runner.configurationFailed(
          error, options: options, common: common, command: "build", watch: status)
      }
    } _: { engine in
      code = try Runner.build(engine, common: common, command: "build", watch: status)
    }
    return code
  }
}
