import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge regenerate NAME…`: render the named assets again.
struct RegenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regenerate",
    abstract:
      "Render the named assets again (names like 'Flags/Italy' or 'Italy', or globs like 'Flags/*').",
    discussion: """
      Exit codes: 0 success (warnings allowed), 1 a name matched no asset or some masters or \
      outputs failed, 2 usage or configuration error, 130 interrupted (Ctrl-C or SIGTERM).
      """
  )

  @Option(name: .shortAndLong, help: "The asset folder.")
  var folder: String = "Assets"

  @Argument(help: "Asset names or globs.")
  var names: [String]

  @OptionGroup var common: CommonOptions

  func validate() throws {
    if names.isEmpty { throw ValidationError("name at least one asset") }
    for name in names {
      if let problem = BuildMode.problem(withPattern: name) { throw ValidationError(problem) }
    }
    try common.validate(folder: folder)
  }

  func run() throws {
    common.applyDiagnostics()
    var options = common.buildOptions(folder: folder)
    options.mode = .regenerate(names)
    let engine = try Runner.engine(options, common: common, command: "regenerate")
    throw ExitCode(try Runner.build(engine, common: common, command: "regenerate"))
  }
}
