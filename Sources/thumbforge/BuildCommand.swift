import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge build`: the main job.
struct BuildCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract:
      "Render every stale output of an asset folder into the catalog and write the manifest.")

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

  @Option(name: .long, help: "Also write a contact sheet PNG of every output to this file.")
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
    let sharded = shard != nil || shards != nil
    if part != nil && !sharded { throw ValidationError("--part needs --shard I/N or --shards N") }
    if sharded && (watch || contactSheet != nil || swift != nil) {
      throw ValidationError(
        "--watch, --contact-sheet and --swift do not apply to a shard (merge writes the catalog)")
    }
  }

  func run() throws {
    var options = common.buildOptions(folder: folder)
    if force { options.mode = .force }
    options.adopt = adopt
    options.swiftFile = swift.map { URL(fileURLWithPath: $0) }
    options.contactSheet = contactSheet.map { URL(fileURLWithPath: $0) }
    do {
      options.shard = try Shard.resolve(
        explicit: shard, count: shards, environment: ProcessInfo.processInfo.environment)
    } catch {
      ReportPrinter.error(error.message)
      throw ExitCode(2)
    }
    options.part = part.map { URL(fileURLWithPath: $0) }
    if dryRun {
      let plan = try Runner.engine(options).plan()
      print(common.json ? PlanPrinter.json(plan) : PlanPrinter.text(plan), terminator: "")
      throw ExitCode(plan.problems.isEmpty ? 0 : 1)
    }
    guard watch else { throw ExitCode(try Runner.build(Runner.engine(options), common: common)) }
    var code: Int32 = 0
    do {
      try Watch(options: options, cancellation: CancellationFlag()).run { engine in
        code = try Runner.build(engine, common: common)
      }
    } catch let error as ConfigError {
      ReportPrinter.error(error.description)
      throw ExitCode(2)
    }
    throw ExitCode(code)
  }
}
