import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeConfig

/// `thumbforge lint`: validates the configuration without rendering.
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check the configuration against the folder without rendering anything.",
    discussion: """
      Exit 0 when the configuration loads and nothing looks wrong, 1 with warnings (a rule \
      that matches no master or only masters an earlier rule takes, a recipe the file defines \
      that no rule uses, an assets: entry naming no asset, each with its file and line; a \
      file with an unknown scale suffix; an unreadable folder), 2 when it does not load (the \
      error names the file, line and key).
      """)

  @Argument(help: "The asset folder.", completion: .directory)
  var folder: String = "Assets"

  @Option(name: .long, help: "Configuration file (default: thumbforge.yml in the folder).")
  var config: String?

  @Flag(name: .long, help: "Print a machine-readable JSON report instead of text.")
  var json = false

  @Flag(name: [.short, .long], help: "Also list every file that is not a master.")
  var verbose = false

  func run() throws {
    var options = BuildOptions(folder: URL(fileURLWithPath: folder))
    options.configFile = config.map { URL(fileURLWithPath: $0) }
    let report: ConfigLint.Report
    do {
      report = try ConfigLint.run(options)
    } catch {
      // In Xcode's format when Xcode runs the tool, as `build` reports the same error.
      ReportPrinter.configError(error, options: options)
      if json { print(ReportPrinter.json(LintFailure(error, options: options))) }
      throw ExitCode(2)
    }
    if json {
      print(ReportPrinter.json(report))
    } else {
      for warning in report.warnings { print("warning: \(warning)") }
      if verbose { for note in report.notes { print("note: \(note)") } }
      let name = report.configFile.isEmpty ? "no configuration file (defaults)" : report.configFile
      print(
        "\(name): \(report.rules) rules, \(report.recipes) recipes, \(report.masters) masters"
          + (report.carriedSets == 0
            ? "" : ", \(report.carriedSets) set folders carried as they are")
          + "; "
          + (report.warnings.isEmpty
            ? "no warnings"
            : "\(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")")
          + (report.notes.isEmpty
            ? ""
            : report.notes.count == 1
              ? "; 1 file is not a master" : "; \(report.notes.count) files are not masters"))
    }
    throw ExitCode(report.warnings.isEmpty ? 0 : 1)
  }
}

/// `lint --json`'s report when the configuration does not load (exit 2): the error's file,
/// line, key and message, as `build --json` gives them.
struct LintFailure: Encodable {
  var command = "lint"
  var status = "configuration-error"
  var exitCode: Int32 = 2
  var error: JSONReport.ConfigFailure

  init(_ error: ConfigError, options: BuildOptions) {
    self.error = JSONReport.ConfigFailure(error, options: options)
  }
}
