import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgePlanning

/// `thumbforge merge`: assembles the parts of a sharded build.
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Assemble the parts of 'build --shard I/N' into one catalog and manifest.",
    discussion: """
      The result is byte for byte what one 'thumbforge build' of the same folder and \
      configuration writes. Parts from different tool or libvips versions, configurations or \
      folder states, missing shards and shards given twice are refused (exit 2) before \
      anything is written. Imagesets a shard found up to date are taken from the catalog \
      being written, which must be the one the shards were built against. Exit codes: 0 \
      merged, 1 a file could not be written, 2 usage error or parts refused.
      """)

  @Argument(help: "The part folders, one per shard.", completion: .directory)
  var parts: [String]

  @Option(name: [.short, .long], help: "The catalog to write (e.g. Build/Assets.xcassets).")
  var output: String

  @Option(name: .long, help: "The manifest to write (default: manifest.json beside the catalog).")
  var manifest: String?

  @Option(
    name: .long,
    help: "Also write Swift constants for every asset name to this file (the 'swift' setting).")
  var swift: String?

  @Flag(name: .long, help: "Print a machine-readable JSON report instead of text.")
  var json = false

  @Flag(name: [.short, .long], help: "Print only problems.")
  var quiet = false

  func validate() throws {
    if parts.isEmpty { throw ValidationError("give the part folders to merge") }
  }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "How errors look: 'text', or 'xcode' (default: xcode when Xcode runs the tool).",
      valueName: "auto|text|xcode"))
  var diagnostics: DiagnosticStyle = .auto

  func run() throws {
    Diagnostics.style = diagnostics.resolved()
    var options = MergeOptions(
      parts: parts.map { URL(fileURLWithPath: $0) }, output: URL(fileURLWithPath: output))
    options.manifest = manifest.map { URL(fileURLWithPath: $0) }
    options.swiftFile = swift.map { URL(fileURLWithPath: $0) }
    let report: BuildReport
    do {
      report = try CatalogMerge.run(options)
    } catch let error as ShardError {
      ReportPrinter.error(error.message)
      throw ExitCode(2)
    } catch {
      ReportPrinter.error("cannot merge into \(output): \(error.localizedDescription)")
      throw ExitCode(1)
    }
    Diagnostics.catalog = URL(fileURLWithPath: output).standardizedFileURL
    if json {
      print(
        ReportPrinter.json(
          JSONReport(command: "merge", folder: URL(fileURLWithPath: output), report: report)))
    } else {
      for problem in report.problems { ReportPrinter.problem(problem) }
      if !quiet {
        print(
          "merged \(parts.count) part\(parts.count == 1 ? "" : "s"): \(report.rendered) outputs copied, \(report.unchanged) unchanged, \(report.removed) removed → \(report.catalog)"
        )
      }
    }
    throw ExitCode(report.exitCode)
  }
}
