import Foundation
import ThumbForge
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// Formats reports for people and machines; errors and warnings in the process's
/// ``Diagnostics`` style.
enum ReportPrinter {
  /// An error that names no file (`error: message`, which Xcode shows as it is).
  static func error(_ line: String) {
    writeError("error: " + line)
  }

  /// A problem with one file: `error: path: reason`, or in Xcode's format
  /// `/abs/path:1:1: error: reason`.
  static func problem(_ problem: Problem) {
    if Diagnostics.isXcode {
      writeError(Diagnostics.xcodeLine("error", path: problem.path, problem.reason))
    } else {
      error(problem.description)
    }
  }

  /// A configuration error: `error: thumbforge.yml:3: key: message`, or in Xcode's format
  /// `/abs/thumbforge.yml:3:1: error: key: message` when it names a file that exists (an
  /// option such as `--output` stays `error: --output: …`).
  static func configError(_ error: ConfigError, options: BuildOptions) {
    if Diagnostics.isXcode,
      let path = error.path(folder: options.folder, explicit: options.configFile)
    {
      let message = error.key.isEmpty ? error.message : "\(error.key): \(error.message)"
      writeError(Diagnostics.xcodeLine("error", path: path, line: error.line, message))
    } else {
      self.error(error.description)
    }
  }

  /// One warning: `warning: imageset: message`, or `/abs/master:1:1: warning: …`.
  static func warning(_ warning: BuildWarning) {
    if Diagnostics.isXcode {
      writeError(Diagnostics.xcodeLine("warning", path: warning.file, warning.description))
    } else {
      writeError("warning: \(warning)")
    }
  }

  /// The warnings in a few lines: one per kind, with the count and the first as an example
  /// (`--verbose` prints each as it comes instead).
  static func warningSummary(_ warnings: [BuildWarning]) {
    let byKind = Dictionary(grouping: warnings, by: \.kind)
    for kind in byKind.keys.sorted() {
      let all = byKind[kind]!.sorted()
      let example = all[0]
      let text =
        kind.counted(all.count) + (all.count == 1 ? ": " : ", e.g. ") + example.description
      if Diagnostics.isXcode {
        writeError(Diagnostics.xcodeLine("warning", path: example.file, text))
      } else {
        writeError("warning: " + text)
      }
    }
  }

  static func summary(_ report: BuildReport, verbose: Bool = false) -> String {
    var failed = "\(report.failed) failed"
    if report.failedOutputs > 0 {
      failed += " (\(report.failedOutputs) output\(report.failedOutputs == 1 ? "" : "s") not made)"
    }
    var parts = [
      "\(report.rendered) rendered", "\(report.unchanged) unchanged", "\(report.skipped) skipped",
      failed,
    ]
    if report.removed > 0 { parts.append("\(report.removed) removed") }
    var line = parts.joined(separator: ", ")
    if report.rendered == 0 && report.removed == 0 && report.problems.isEmpty && !report.cancelled {
      line = "up to date (\(report.unchanged) outputs); nothing to render"
    }
    let warnings = report.warnings.count
    if warnings > 0 {
      line += "; \(warnings) warning\(warnings == 1 ? "" : "s")"
      if !verbose { line += " (summed up above; --verbose lists each)" }
    }
    let notes = report.notes.count
    if notes == 1 {
      line += "; 1 file is not a master (--verbose names it)"
    } else if notes > 1 {
      line += "; \(notes) files are not masters (--verbose names them)"
    }
    if report.cancelled { line = "cancelled: " + line + " (manifest saved; run again to finish)" }
    return line + " → \(report.catalog)"
  }

  /// Pretty-printed JSON with sorted keys (one line when `compact`: `--watch --json` writes
  /// one report per line).
  static func json(_ value: some Encodable, compact: Bool = false) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      compact
      ? [.sortedKeys, .withoutEscapingSlashes]
      : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
  }

  private static func writeError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
