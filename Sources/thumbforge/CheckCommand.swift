import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeCatalog
internal import ThumbForgeConfig

/// `thumbforge check`: for CI; compares and writes nothing.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Exit 1 when the catalog, manifest or Swift accessors file is stale, missing, edited by hand or orphaned; write nothing.",
    discussion: """
      Exit codes: 0 up to date, 1 something differs (one line each on stdout) or a master \
      failed, 2 usage or configuration error. Commit manifest.json with the catalog: without \
      it nothing in the catalog can be told apart from hand-made imagesets.
      """
  )

  @Argument(help: "The asset folder.", completion: .directory)
  var folder: String = "Assets"

  @OptionGroup var common: CommonOptions

  @Option(
    name: .long,
    help: "The Swift constants file the build wrote (default: the configuration's 'swift').")
  var swift: String?

  func validate() throws {
    try common.validate(folder: folder)
  }

  func run() throws {
    common.applyDiagnostics()
    var options = common.buildOptions(folder: folder)
    options.mode = .check
    options.swiftFile = swift.map { URL(fileURLWithPath: $0) }
    let engine = try Runner.engine(options, common: common, command: "check")
    Diagnostics.folder = engine.workspace.folder
    Diagnostics.catalog = engine.workspace.catalog
    let timings = common.timings ? Timings(setupSince: Timings.mainEntered) : nil
    let report: BuildReport
    do {
      report = try engine.run(onEvent: Timings.events(recordedBy: timings))
    } catch let error as ConfigError {
      Runner.configurationFailed(error, options: options, common: common, command: "check")
      throw ExitCode(2)
    }
    if common.json {
      print(
        ReportPrinter.json(JSONReport(command: "check", folder: options.folder, report: report)))
    } else {
      for problem in report.problems { ReportPrinter.problem(problem) }
      for item in report.stale { print(item.description) }
      if !common.quiet {
        // Counted by set folder: one imageset can differ in several ways (one line each).
        let sets = Set(report.stale.map(\.setFolder)).count
        let differences =
          sets == report.stale.count ? "" : " (\(counted(report.stale.count, "difference")))"
        print(
          report.stale.isEmpty && report.problems.isEmpty
            ? "up to date: \(report.unchanged) outputs"
            : "\(sets) stale\(differences), \(counted(report.problems.count, "problem")); run 'thumbforge build' to update"
        )
      }
    }
    timings?.print()
    throw ExitCode(report.exitCode)
  }
}
