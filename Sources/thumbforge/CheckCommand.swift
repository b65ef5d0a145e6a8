import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge check`: for CI; compares and writes nothing.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Exit 1 when the catalog, manifest or Swift accessors file is stale, missing, edited by hand or orphaned; write nothing."
  )

  @Argument(help: "The asset folder.", completion: .directory)
  var folder: String = "Assets"

  @OptionGroup var common: CommonOptions

  @Option(
    name: .long,
    help: "The Swift constants file the build wrote (default: the configuration's 'swift').")
  var swift: String?

  func run() throws {
    var options = common.buildOptions(folder: folder)
    options.mode = .check
    options.swiftFile = swift.map { URL(fileURLWithPath: $0) }
    let engine = try Runner.engine(options)
    let report = try engine.run()
    if common.json {
      print(ReportPrinter.json(report))
    } else {
      for problem in report.problems { ReportPrinter.error(problem.description) }
      for item in report.stale { print(item.description) }
      if !common.quiet {
        print(
          report.stale.isEmpty && report.problems.isEmpty
            ? "up to date: \(report.unchanged) outputs"
            : "\(report.stale.count) stale, \(report.problems.count) problems; run 'thumbforge build' to update"
        )
      }
    }
    throw ExitCode(report.exitCode)
  }
}
