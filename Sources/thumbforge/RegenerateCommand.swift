import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge regenerate NAME…`: render the named assets again.
struct RegenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regenerate",
    abstract:
      "Render the named assets again (names like 'Flags/Italy' or 'Italy', or globs like 'Flags/*')."
  )

  @Option(name: .shortAndLong, help: "The asset folder.")
  var folder: String = "Assets"

  @Argument(help: "Asset names or globs.")
  var names: [String]

  @OptionGroup var common: CommonOptions

  func validate() throws {
    if names.isEmpty { throw ValidationError("name at least one asset") }
  }

  func run() throws {
    var options = common.buildOptions(folder: folder)
    options.mode = .regenerate(names)
    let engine = try Runner.engine(options)
    throw ExitCode(try Runner.build(engine, common: common))
  }
}
