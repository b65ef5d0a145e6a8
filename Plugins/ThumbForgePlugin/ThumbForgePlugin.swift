import Foundation
import PackagePlugin

/// `swift package thumbforge [build|check|lint|regenerate|…] [ARGUMENTS]`: runs the
/// `thumbforge` tool, built from this package, in the package directory.
///
/// The arguments go to the tool unchanged. The tool runs with the package (or Xcode project)
/// directory as its working directory, so the asset folder defaults to `Assets` there
/// (`build`, `check` and `lint` take the folder as an argument, `regenerate` as `-f`, each
/// defaulting to `Assets`), and relative paths in the arguments are relative to that
/// directory. With no arguments at all the tool runs its default subcommand, `build`.
@main
struct ThumbForgePlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    try ThumbForgeRun(
      tool: try context.tool(named: "thumbforge").url,
      directory: context.package.directoryURL,
      arguments: arguments
    ).run()
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension ThumbForgePlugin: XcodeCommandPlugin {
    /// Xcode: right-click the project in the navigator → ThumbForge. Xcode adds
    /// `--target NAME` for the targets chosen in its dialog; the tool works on folders, not
    /// targets, so those are dropped.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      var extractor = ArgumentExtractor(arguments)
      _ = extractor.extractOption(named: "target")
      try ThumbForgeRun(
        tool: try context.tool(named: "thumbforge").url,
        directory: context.xcodeProject.directoryURL,
        arguments: extractor.remainingArguments
      ).run()
    }
  }
#endif

/// One run of the tool, shared by the package and the Xcode entry points.
struct ThumbForgeRun {
  var tool: URL
  var directory: URL
  var arguments: [String]

  /// Runs the tool and waits for it. When it fails, the plugin reports an error naming the
  /// command and its status and exits with that status. (`swift package` itself then exits
  /// with 1 whatever the tool's status was: a stale `check` and a usage error both fail.)
  func run() throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.currentDirectoryURL = directory
    // Standard output and error are inherited: the tool's report reaches the terminal (or
    // Xcode's report navigator) as it is printed.
    try process.run()
    process.waitUntilExit()
    let status = process.terminationStatus
    let command = (["thumbforge"] + arguments).joined(separator: " ")
    switch process.terminationReason {
    case .exit where status == 0:
      return
    case .exit:
      Diagnostics.error("\(command) exited with status \(status)")
      exit(status)
    case .uncaughtSignal:
      Diagnostics.error("\(command) was ended by signal \(status)")
      exit(128 + status)
    @unknown default:
      Diagnostics.error("\(command) failed (status \(status))")
      exit(1)
    }
  }
}
