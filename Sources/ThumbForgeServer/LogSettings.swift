package import Logging

/// How `serve` logs: the line format and the lowest level written, from the command line or,
/// when a flag is not given, from `THUMBFORGE_LOG_FORMAT` / `THUMBFORGE_LOG_LEVEL`.
package struct LogSettings: Sendable, Equatable {
  /// swift-log's text lines, or one JSON object per line (``JSONLogHandler``).
  package enum Format: String, Sendable, CaseIterable {
    case text, json
  }

  package var format: Format = .text
  package var level: Logger.Level = .info

  package static let formatVariable = "THUMBFORGE_LOG_FORMAT"
  package static let levelVariable = "THUMBFORGE_LOG_LEVEL"

  /// The settings a flag names, else its environment variable, else the default (`text`,
  /// `info`).
  /// - Throws: ``ServeError`` naming the flag or variable and the accepted values.
  package init(format: String?, level: String?, environment: [String: String]) throws(ServeError) {
    if let text = format ?? environment[Self.formatVariable] {
      guard let parsed = Format(rawValue: text.lowercased()) else {
        throw ServeError(
          message:
            "\(format == nil ? Self.formatVariable : "--log-format") '\(text)' is not one of text, json"
        )
      }
      self.format = parsed
    }
    if let text = level ?? environment[Self.levelVariable] {
      guard let parsed = Logger.Level(rawValue: text.lowercased()) else {
        let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
        throw ServeError(
          message:
            "\(level == nil ? Self.levelVariable : "--log-level") '\(text)' is not one of \(names)")
      }
      self.level = parsed
    }
  }

  /// A handler for `label` in this format, at this level (for `LoggingSystem.bootstrap`).
  package func handler(label: String) -> any LogHandler {
    var handler: any LogHandler =
      format == .json ? JSONLogHandler() : StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
  }
}
