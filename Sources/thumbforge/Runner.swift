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
  static func build(_ engine: BuildEngine, common: CommonOptions, contactSheet: String?) throws
    -> Int32
  {
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
    if let contactSheet, let manifest = try? ManifestStore.read(at: engine.workspace.manifest) {
      do {
        try ContactSheet.write(
          manifest: manifest, catalog: engine.workspace.catalog,
          to: URL(fileURLWithPath: contactSheet))
        if !common.quiet && !common.json { print("contact sheet: \(contactSheet)") }
      } catch {
        ReportPrinter.error("\(contactSheet): cannot write contact sheet: \(error)")
      }
    }
    if common.json {
      print(ReportPrinter.json(report))
    } else if !common.quiet {
      print(ReportPrinter.summary(report))
    }
    return report.exitCode
  }
}
