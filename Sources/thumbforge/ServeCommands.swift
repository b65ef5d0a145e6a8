import ArgumentParser

/// The subcommands only a build with the `Serve` trait has (Package.swift): `serve` and the
/// server behind it. A build without it (an app's plugin, say) has every other subcommand.
enum ServeCommands {
  #if Serve
    static let all: [any ParsableCommand.Type] = [ServeCommand.self]
  #else
    static let all: [any ParsableCommand.Type] = []
  #endif

  /// Why `word` names no subcommand in this build, when it names one this build leaves out.
  static func leftOut(_ word: String) -> String? {
    guard all.isEmpty, word == "serve" else { return nil }
    return
      "this thumbforge was built without the server: 'serve' needs the Serve trait (from source: a plain swift build -c release has it; an app depending on ThumbForge: traits: [\"Serve\"])"
  }
}
