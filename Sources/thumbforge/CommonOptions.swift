import ArgumentParser
import Foundation
import ThumbForge

/// Options shared by every subcommand (the asset folder is each command's own).
struct CommonOptions: ParsableArguments {
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

  @Flag(name: [.short, .long], help: "Print every output written and every warning.")
  var verbose = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, got \(jobs)") }
    if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
  }

  func buildOptions(folder: String) -> BuildOptions {
    var options = BuildOptions(folder: URL(fileURLWithPath: folder))
    options.configFile = config.map { URL(fileURLWithPath: $0) }
    options.output = output.map { URL(fileURLWithPath: $0) }
    options.jobs = jobs
    return options
  }
}
