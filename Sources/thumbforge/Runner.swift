import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// Shared steps of the commands: make the engine (config errors exit 2), run it with
/// progress and signals, print the summary (or the `--json` report).
enum Runner {
  /// Makes the engine; a configuration error is printed (with its JSON report under
  /// `--json`) and exits 2.
  static func engine(
    _ options: BuildOptions, common: CommonOptions, command: String,
    cancellation: CancellationFlag = CancellationFlag()
  ) throws -> BuildEngine {
    do {
      return try BuildEngine(options: options, cancellation: cancellation)
    } catch {
      configurationFailed(error, options: options, common: common, command: command)
      throw ExitCode(2)
    }
  }

  /// Prints a configuration error: the diagnostic on stderr, and under `--json` the report
  /// (status `configuration-error`) on stdout; in a watch, the timestamped line too.
  static func configurationFailed(
    _ error: ConfigError, options: BuildOptions, common: CommonOptions, command: String,
    watch: WatchStatus? = nil
  ) {
    ReportPrinter.configError(error, options: options)
    if common.json {
      print(
        ReportPrinter.json(
          JSONReport(command: command, options: options, configError: error),
          compact: watch != nil))
    }
    watch?.note("configuration error (above): not built; still watching, save a fix to build")
  }

  /// Runs one build; returns its exit code. In a watch (`watch` set), the watch's signal
  /// handler stays in place, the summary line is timestamped and a JSON report takes one
  /// line.
  static func build(
    _ engine: BuildEngine, common: CommonOptions, command: String, watch: WatchStatus? = nil
  ) throws -> Int32 {
    let signals = watch == nil ? SignalHandler(cancellation: engine.cancellation) : nil
    defer { signals?.restore() }
    Diagnostics.folder = engine.workspace.folder
    Diagnostics.catalog = engine.workspace.catalog
    let progress = ProgressDisplay(quiet: common.quiet || common.json, verbose: common.verbose)
    // In a watch, each build's stages are timed from its own start.
    let timings =
      common.timings ? Timings(setupSince: watch == nil ? Timings.mainEntered : nil) : nil
    let report: BuildReport
    do {
      report = try engine.run(onEvent: Timings.events(recordedBy: timings, then: progress.handle))
    } catch let error as ConfigError {
      progress.finish()
      configurationFailed(
        error, options: engine.options, common: common, command: command, watch: watch)
      return 2
    }
    progress.finish()
    if let sheet = engine.options.contactSheet, !common.quiet && !common.json,
      !report.problems.contains(where: { $0.path == sheet.path })
    {
      print("contact sheet: \(sheet.path)")
    }
    if !common.json && !common.verbose { ReportPrinter.warningSummary(report.warnings) }
    if common.json {
      print(
        ReportPrinter.json(
          JSONReport(command: command, folder: engine.workspace.folder, report: report),
          compact: watch != nil))
    } else if !common.quiet {
      let summary = ReportPrinter.summary(report, verbose: common.verbose)
      if let watch { watch.note(summary) } else { print(summary) }
    }
    timings?.print()
    return report.exitCode
  }
}

/// The lines a watch prints between builds: `[14:03:07] …`, on stdout (stderr under
/// `--json`, whose stdout holds only reports; none under `--quiet`).
struct WatchStatus {
  var quiet: Bool
  var json: Bool
  /// What started this build (`Flags/Italy.svg changed`); nil for the first.
  var trigger: String?

  func note(_ text: String) {
    guard !quiet else { return }
    let line = "[\(Self.clock())] " + (trigger.map { $0 + "; " } ?? "") + text
    if json {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    } else {
      print(line)
    }
  }

  /// The local time of day, `HH:mm:ss`.
  static func clock(_ date: Date = Date()) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "HH:mm:ss"
    return formatter.string(from: date)
  }

  /// `Flags/Italy.svg changed`, `thumbforge.yml and 2 more changed`.
  static func describe(_ changes: [String]) -> String {
    guard let first = changes.first else { return "changed" }
    return changes.count == 1
      ? "\(first) changed" : "\(first) and \(changes.count - 1) more changed"
  }
}
