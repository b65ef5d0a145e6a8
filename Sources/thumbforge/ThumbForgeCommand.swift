import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeBasics

/// The `thumbforge` command line.
@main
struct ThumbForgeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "thumbforge",
    abstract:
      "Turn an asset folder into an Xcode asset catalog: 2x/3x variants, flags, fit/fill crops and tiles.",
    discussion: """
      Exit codes: 0 success, 1 some inputs failed (or check found stale outputs), \
      2 usage or configuration error, 130 interrupted. Each subcommand's help states its own.
      """,
    version: ToolVersion.current,
    subcommands: [
      BuildCommand.self, CheckCommand.self, RegenerateCommand.self, LintCommand.self,
      MergeCommand.self, InitCommand.self,
    ] + ServeCommands.all + [SignCommand.self],
    defaultSubcommand: BuildCommand.self)

  /// Runs the command. Usage errors (ArgumentParser's own and every `ValidationError`, which
  /// commands throw from `validate()` so that the usage shown is the subcommand's) print
  /// `Error: …` and the usage line, and exit 2 (not ArgumentParser's 64), as documented.
  /// Errors that are not about usage (``CommandFailure``) print `error: …` alone.
  static func main() {
    _ = Timings.mainEntered
    if usesLibvips(CommandLine.arguments.dropFirst()) { LibvipsStart.begin() }
    StandardOutput.lineBuffered()
    do {
      let arguments = CommandLineWords.normalized(Array(CommandLine.arguments.dropFirst()))
      try CommandLineWords.checkFirstWord(arguments)
      var command = try parseAsRoot(arguments)
      try command.run()
    } catch let code as ExitCode {
      Foundation.exit(code.rawValue)
    } catch let failure as CommandFailure {
      ReportPrinter.error(failure.message)
      Foundation.exit(failure.code)
    } catch {
      let text = fullMessage(for: error)
      if exitCode(for: error) == .success {
        print(text)
        Foundation.exit(0)
      }
      FileHandle.standardError.write(Data((text + "\n").utf8))
      Foundation.exit(2)
    }
  }
}

extension ThumbForgeCommand {
  /// The subcommands that never use libvips.
  static let commandsWithoutLibvips: [any ParsableCommand.Type] = [
    LintCommand.self, MergeCommand.self, InitCommand.self, SignCommand.self,
  ]

  /// The first arguments of the requests that never use libvips (those subcommands' names,
  /// help and version): starting it early for them would only cost time.
  static let withoutLibvips = Set(
    commandsWithoutLibvips.compactMap { $0.configuration.commandName }
      + [
        "help", "-h", "--help", "--version", "--generate-completion-script",
        "--experimental-dump-help",
      ])

  /// Whether the command these arguments name uses libvips (a build, `check`, `regenerate`,
  /// `serve`), so that it is worth starting early.
  static func usesLibvips(_ arguments: some Collection<String>) -> Bool {
    guard let first = arguments.first else { return true }
    return !withoutLibvips.contains(first)
  }
}

/// An error that is not about how the command was called (a signing key that is not set, an
/// environment variable that does not parse): printed as `error: message`, without the
/// usage, and exits with `code` (2 by default: a configuration error).
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  var code: Int32 = 2

  init(_ message: String, code: Int32 = 2) {
    self.message = message
    self.code = code
  }

  var description: String { message }
}
