package import ThumbForgePlanning

/// What a run did, for the summary line, exit code and `--json`.
package struct BuildReport: Sendable, Codable {
  /// Output files written this run.
  package var rendered = 0
  /// Output files already up to date.
  package var unchanged = 0
  /// Outputs left out (would upscale, and so on): the `skipped` warnings.
  package var skipped = 0
  /// Output files not made because their master or their imageset failed.
  package var failedOutputs = 0
  /// Files removed because their source is gone.
  package var removed = 0
  package var problems: [Problem] = []
  /// Outputs made with a caveat or left out, with their kind and the file concerned.
  package var warnings: [BuildWarning] = []
  /// Files of the folder that are not masters, each with why: not built, not a failure.
  package var notes: [Problem] = []
  /// For `check`: every difference found.
  package var stale: [StaleItem] = []
  /// The run was interrupted (Ctrl-C / SIGTERM).
  package var cancelled = false
  /// Catalog and manifest paths used.
  package var catalog = ""
  package var manifest = ""

  package init() {}

  /// What failed, counted per file: each master (or imageset, or other file) that a problem
  /// names counts once, however many outputs it would have made. The text summary and
  /// `--json` both give this number; ``failedOutputs`` counts the outputs.
  package var failed: Int { Set(problems.map(\.path)).count }

  /// The warnings counted by kind.
  package var warningCounts: [BuildWarning.Kind: Int] {
    warnings.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
  }

  /// 0 success, 1 some inputs failed (or `check` found differences), 130 interrupted.
  package var exitCode: Int32 {
    if cancelled { return 130 }
    return problems.isEmpty && stale.isEmpty ? 0 : 1
  }
}
