import ArgumentParser
import Foundation
import ThumbForge

/// The `thumbforge` command line.
@main
struct ThumbForgeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "thumbforge",
    abstract:
      "Turn an asset folder into an Xcode asset catalog: 2x/3x variants, flags, fit/fill crops and tiles.",
    discussion: """
      Exit codes: 0 success, 1 some inputs failed (or check found stale outputs), \
      2 usage or configuration error.
      """,
    version: ToolVersion.current,
    subcommands: [
      BuildCommand.self, CheckCommand.self, RegenerateCommand.self, LintCommand.self,
      MergeCommand.self, InitCommand.self,
      ServeCommand.self,
      SignCommand.self,
    ],
    defaultSubcommand: BuildCommand.self)

  /// Runs the command; usage errors exit with 2 (not ArgumentParser's 64), as documented.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let code as ExitCode {
      Foundation.exit(code.rawValue)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        Foundation.exit(0)
      }
      FileHandle.standardError.write(Data((message(for: error) + "\n").utf8))
      if !(error is ExitCode) && code == .validationFailure {
        FileHandle.standardError.write(Data("Run 'thumbforge help' for usage.\n".utf8))
      }
      Foundation.exit(2)
    }
  }
}
