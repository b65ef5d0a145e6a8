import ArgumentParser
import Foundation
import ThumbForge

/// Options shared by every subcommand (the asset folder is each command's own).
struct CommonOptions: ParsableArguments {
  @Option(name: .long, help: "Configuration file (default: thumbforge.yml in the folder).")
  var config: String?

  @Option(
    name: [.short, .long],
    help:
      "The catalog: where a build writes, what check compares (default: the configuration's 'output')."
  )
  var output: String?

  @Option(name: [.short, .long], help: "Parallel jobs (default: one per core).")
  var jobs: Int?

  @Flag(
    name: .long,
    help: ArgumentHelp(
      "Print a machine-readable JSON report instead of text (schema: Schemas/build-report.schema.json).",
      discussion: "Also for a configuration error and an interrupted run."))
  var json = false

  @Flag(name: [.short, .long], help: "Print only problems and a summary of warnings.")
  var quiet = false

  @Flag(name: [.short, .long], help: "Print every output written and every warning.")
  var verbose = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "How errors and warnings look: 'text', or 'xcode' (/abs/path:line:column: error: message).",
      discussion:
        "'auto' (the default) is 'xcode' when Xcode runs the tool (XCODE_VERSION_ACTUAL or XCODE_PRODUCT_BUILD_VERSION is set), else 'text'.",
      valueName: "auto|text|xcode"))
  var diagnostics: DiagnosticStyle = .auto

  @Flag(
    name: .long,
    help: "After the run, print each stage's wall and CPU time and the cores it kept busy (stderr)."
  )
  var timings = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, got \(jobs)") }
    if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
  }

  /// The usage errors that need the command's asset folder: a folder that is not there, an
  /// `--output` inside it (it would be read back as input).
  func validate(folder: String) throws {
    let url = URL(fileURLWithPath: folder).standardizedFileURL
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw ValidationError("no such asset folder: \(url.path)")
    }
    if let output {
      let catalog = URL(fileURLWithPath: output).standardizedFileURL.path
      if catalog == url.path || catalog.hasPrefix(url.path + "/") {
        throw ValidationError(
          "--output '\(catalog)' is inside the asset folder and would be read back as input")
      }
    }
  }

  /// Sets the process's diagnostic style (before anything is printed).
  func applyDiagnostics() {
    Diagnostics.style = diagnostics.resolved()
  }

  func buildOptions(folder: String) -> BuildOptions {
    var options = BuildOptions(folder: URL(fileURLWithPath: folder))
    options.configFile = config.map { URL(fileURLWithPath: $0) }
    options.output = output.map { URL(fileURLWithPath: $0) }
    options.jobs = jobs
    Diagnostics.folder = options.folder.standardizedFileURL
    return options
  }
}
