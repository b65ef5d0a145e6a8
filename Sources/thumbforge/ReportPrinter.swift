import Foundation
import ThumbForge

/// Formats reports for people and machines.
enum ReportPrinter {
  static func error(_ line: String) {
    FileHandle.standardError.write(Data(("error: " + line + "\n").utf8))
  }

  static func summary(_ report: BuildReport) -> String {
    var parts = [
      "\(report.rendered) rendered", "\(report.unchanged) unchanged", "\(report.skipped) skipped",
      "\(report.failed + report.problems.count) failed",
    ]
    if report.removed > 0 { parts.append("\(report.removed) removed") }
    var line = parts.joined(separator: ", ")
    if report.rendered == 0 && report.removed == 0 && report.problems.isEmpty && !report.cancelled {
      line = "up to date (\(report.unchanged) outputs); nothing to render"
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

  static func json(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
  }
}
