import ArgumentParser
import Foundation
import ThumbForge
internal import ThumbForgeBasics

/// What the command line's words mean before ArgumentParser reads them: `-j4` for `-j 4`,
/// and a first word that is neither a subcommand nor plainly a folder refused with a
/// suggestion (build is the default subcommand, so `thumbforge buidl` would otherwise try
/// to build a folder named `buidl`, and `thumbforge watch` one named `watch`).
enum CommandLineWords {
  /// The short options that take a value (`-j 4`, `-o Out.xcassets`), which may also be
  /// written joined to it (`-j4`).
  static let shortOptionsWithValues: Set<Character> = ["j", "o"]

  /// `arguments` with every `-jN` split into `-j`, `N` (the first `--` ends options).
  static func normalized(_ arguments: [String]) -> [String] {
    var result: [String] = []
    for (index, word) in arguments.enumerated() {
      if word == "--" {
        result += arguments[index...]
        break
      }
      let characters = Array(word)
      if characters.count > 2, characters[0] == "-", characters[1] != "-",
        shortOptionsWithValues.contains(characters[1])
      {
        result += [String(characters[0...1]), String(characters[2...])]
      } else {
        result.append(word)
      }
    }
    return result
  }

  /// The subcommands' names.
  static var subcommands: [String] {
    ThumbForgeCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
  }

  /// `build`'s long options and flags, without their dashes, from its own help.
  static var buildOptionNames: Set<String> {
    let help = BuildCommand.helpMessage(columns: 400)
    return Set(help.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
  }

  /// Refuses a first word that names no subcommand but looks like one: a mistyped
  /// subcommand, or one of `build`'s options written without dashes. Any other word is the
  /// folder `build` takes; one that is not there and has no `/` is said to be neither.
  static func checkFirstWord(_ arguments: [String]) throws {
    guard let first = arguments.first, !first.hasPrefix("-") else { return }
    let names = subcommands + ["help"]
    if names.contains(first) { return }
    if let reason = ServeCommands.leftOut(first) { throw CommandFailure(reason) }
    let folderHint = "to build a folder named '\(first)', run 'thumbforge build \(first)'"
    if buildOptionNames.contains(first) {
      throw ValidationError(
        "'\(first)' is not a subcommand (did you mean 'thumbforge build --\(first)'?); \(folderHint)"
      )
    }
    if let guess = Suggestion.closest(to: first, in: names) {
      throw ValidationError(
        "unknown subcommand '\(first)' (did you mean '\(guess)'?); \(folderHint)")
    }
    var isFolder: ObjCBool = false
    if !first.contains("/"), !FileManager.default.fileExists(atPath: first, isDirectory: &isFolder)
    {
      throw ValidationError(
        "'\(first)' is neither a subcommand (\(subcommands.joined(separator: ", "))) nor a folder here"
      )
    }
  }
}
