import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge regenerate NAME…`: render the named assets again.
struct RegenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regenerate",
    abstract: "Render the named assets again (names like 'Flags/Italy' or 'Italy', or globs like 'Flags/*').")

  @Option(name: .shortAndLong, help: "The asset folder.")
  var folder: String = "Assets"

  @Argument(help: "Asset names or globs.")
  var names: [String]

  @Option(name: .long, help: "Configuration file (default: thumbforge.yml in the folder).")
  var config: String?

  @Option(name: [.short, .long], help: "Catalog to write (default: the configuration's 'output').")
  var output: String?

  @Option(name: [.short, .long], help: "Parallel jobs (default: one per core).")
  var jobs: Int?

  @Flag(name: .long, help: "Print a machine-readable JSON report instead of text.")
  var json = false

  @Flag(name: [.short, .long], help: "Print only problems.")
  var quiet = false

  func validate() throws {
    if names.isEmpty { throw ValidationError("name at least one asset") }
  }

  func run() throws {
    var common = try CommonOptions.parse([folder])
    common.config = config
    common.output = output
    common.jobs = jobs
    common.json = json
    common.quiet = quiet
    var options = common.buildOptions()
    options.regenerate = names
    let engine = try Runner.engine(options)
    throw ExitCode(try Runner.build(engine, common: common, contactSheet: nil))
  }
}
