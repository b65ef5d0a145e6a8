import ArgumentParser
import Foundation
import ThumbForge

/// Shared steps of the commands: make the engine (config errors exit 2), run it with
/// progress and signals, print the summary.
enum Runner {
  static func engine(_ options: BuildOptions, cancellation: CancellationFlag = CancellationFlag())
    throws
    -> BuildEngine
  {
    do {
      return try BuildEngine(options: options, cancellation: cancellation)
    } catch {
      ReportPrinter.error(error.description)
      throw ExitCode(2)
    }
  }

  /// Runs one build; returns its exit code.
  static func build(_ engine: BuildEngine, common: CommonOptions) throws -> Int32 {
    let signals = SignalHandler(cancellation: engine.cancellation)
    defer { signals.restore() }
    let progress = ProgressDisplay(quiet: common.quiet || common.json, verbose: common.verbose)
    let report: BuildReport
    do {
      report = try engine.run(onEvent: progress.handle)
    } catch let error as ConfigError {
      progress.finish()
      ReportPrinter.error(error.description)
      return 2
    }
    progress.finish()
    if let sheet = engine.options.contactSheet, !common.quiet && !common.json,
      !report.problems.contains(where: { $0.path == sheet.path })
    {
      print("contact sheet: \(sheet.path)")
    }
    if common.json {
      print(ReportPrinter.json(report))
    } else if !common.quiet {
      print(ReportPrinter.summary(report))
    }
    return report.exitCode
  }
}
