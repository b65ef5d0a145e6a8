import Foundation
import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// The `--json` report of `build`, `check`, `regenerate` and `merge`, schema
/// ``currentSchema``: `Schemas/build-report.schema.json` describes it (README *JSON report*).
/// Every run that gets as far as its options prints one, a configuration error and an
/// interrupted run included.
struct JSONReport: Encodable {
  /// Raised when a field is removed or changes meaning; new fields do not raise it.
  static let currentSchema = 1

  enum Status: String, Encodable {
    /// Nothing failed (warnings allowed): exit 0.
    case success
    /// Some masters or outputs failed (`problems`): exit 1.
    case failed
    /// `check` found differences (`stale`) and nothing failed: exit 1.
    case stale
    /// The configuration (or the manifest) did not load (`error`): exit 2.
    case configurationError = "configuration-error"
    /// Ctrl-C or SIGTERM: files in progress were finished and the manifest written: exit 130.
    case interrupted
  }

  /// A configuration error: where and what.
  struct ConfigFailure: Encodable {
    /// The file (absolute when it exists; else as the error names it, e.g. `--output`).
    var file: String
    var line: Int?
    var key: String
    var message: String

    init(_ error: ConfigError, options: BuildOptions) {
      file = error.path(folder: options.folder, explicit: options.configFile) ?? error.file
      line = error.line
      key = error.key
      message = error.message
    }
  }

  var schemaVersion = JSONReport.currentSchema
  var tool = "thumbforge"
  var toolVersion = ToolVersion.current
  /// `build`, `check`, `regenerate` or `merge`.
  var command: String
  var status: Status
  var exitCode: Int32
  /// The asset folder (absolute); problems', notes' and warnings' paths are relative to it
  /// (an imageset's, to the catalog).
  var folder: String
  var catalog: String
  var manifest: String
  var rendered = 0
  var unchanged = 0
  var skipped = 0
  /// Masters (and other files) that failed, one each: as many as `problems` name.
  var failed = 0
  /// Outputs not made because their master or imageset failed.
  var failedOutputs = 0
  var removed = 0
  /// Every warning kind, with how many of `warnings` are of it (0 included).
  var warningCounts: [String: Int] = [:]
  var problems: [Problem] = []
  var warnings: [BuildWarning] = []
  var notes: [Problem] = []
  var stale: [StaleItem] = []
  var cancelled = false
  var error: ConfigFailure?

  init(command: String, folder: URL, report: BuildReport) {
    self.command = command
    exitCode = report.exitCode
    status =
      report.cancelled
      ? .interrupted
      : !report.problems.isEmpty ? .failed : !report.stale.isEmpty ? .stale : .success
    self.folder = folder.standardizedFileURL.path
    catalog = report.catalog
    manifest = report.manifest
    rendered = report.rendered
    unchanged = report.unchanged
    skipped = report.skipped
    failed = report.failed
    failedOutputs = report.failedOutputs
    removed = report.removed
    let counts = report.warningCounts
    warningCounts = Dictionary(
      uniqueKeysWithValues: BuildWarning.Kind.allCases.map { ($0.rawValue, counts[$0] ?? 0) })
    problems = report.problems
    warnings = report.warnings
    notes = report.notes
    stale = report.stale
    cancelled = report.cancelled
  }

  /// The report of a run stopped by a configuration error (exit 2).
  init(command: String, options: BuildOptions, configError: ConfigError) {
    self.command = command
    status = .configurationError
    exitCode = 2
    folder = options.folder.standardizedFileURL.path
    catalog = options.output?.standardizedFileURL.path ?? ""
    manifest = ""
    warningCounts = Dictionary(
      uniqueKeysWithValues: BuildWarning.Kind.allCases.map { ($0.rawValue, 0) })
    error = ConfigFailure(configError, options: options)
  }
}
