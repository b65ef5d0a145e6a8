/// What a run did, for the summary line, exit code and `--json`.
public struct BuildReport: Sendable, Codable {
  /// Output files written this run.
  public var rendered = 0
  /// Output files already up to date.
  public var unchanged = 0
  /// Outputs left out (would upscale, and so on).
  public var skipped = 0
  /// Output files that failed, or masters that could not be read.
  public var failed = 0
  /// Files removed because their source is gone.
  public var removed = 0
  public var problems: [Problem] = []
  public var warnings: [String] = []
  /// Files of the folder that are not masters, each with why: not built, not a failure.
  public var notes: [Problem] = []
  /// For `check`: every difference found.
  public var stale: [StaleItem] = []
  /// The run was interrupted (Ctrl-C / SIGTERM).
  public var cancelled = false
  /// Catalog and manifest paths used.
  public var catalog = ""
  public var manifest = ""

  public init() {}

  /// 0 success, 1 some inputs failed (or `check` found differences).
  public var exitCode: Int32 {
    if cancelled { return 130 }
    return problems.isEmpty && stale.isEmpty ? 0 : 1
  }
}
