internal import Foundation
public import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A swift-log handler that writes one JSON object per line, for log collectors that parse
/// lines (`--log-format json`):
///
/// ```json
/// {"timestamp":"2026-11-26T15:04:05.123Z","level":"info","message":"GET /healthz 200","metadata":{"ms":"0"}}
/// ```
///
/// Metadata keys are sorted; values keep their shape (strings, arrays, objects). Each line is
/// written with one `write(2)`, so lines from concurrent requests never interleave.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let sink: @Sendable (String) -> Void

  /// A handler writing each line to `sink` (standard error by default).
  public init(sink: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
    self.sink = sink
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var merged = metadata
    if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
    if let own = event.metadata { merged.merge(own) { $1 } }
    sink(Self.line(level: event.level, message: event.message.description, metadata: merged))
  }

  /// The JSON line (with its newline) for one event logged now.
  static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
    var text = "{\"timestamp\":\"" + timestamp() + "\",\"level\":\"" + level.rawValue
    text += "\",\"message\":"
    append(string: message, to: &text)
    text += ",\"metadata\":"
    append(.dictionary(metadata), to: &text)
    return text + "}\n"
  }

  /// Writes `line` to standard error in one call.
  @Sendable public static func standardError(_ line: String) {
    var line = line
    line.withUTF8 { bytes in
      var start = 0
      while start < bytes.count {
        let written = write(2, bytes.baseAddress! + start, bytes.count - start)
        if written <= 0 { return }
        start += written
      }
    }
  }

  /// Now in UTC, ISO 8601 with milliseconds (`2026-11-26T15:04:05.123Z`).
  static func timestamp() -> String {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
  }

  private static func append(_ value: Logger.Metadata.Value, to text: inout String) {
    switch value {
    case .string(let string): append(string: string, to: &text)
    case .stringConvertible(let convertible): append(string: convertible.description, to: &text)
    case .array(let values):
      text += "["
      for (index, element) in values.enumerated() {
        if index > 0 { text += "," }
        append(element, to: &text)
      }
      text += "]"
    case .dictionary(let dictionary):
      text += "{"
      for (index, key) in dictionary.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        append(string: key, to: &text)
        text += ":"
        append(dictionary[key]!, to: &text)
      }
      text += "}"
    }
  }

  /// `string` as a JSON string literal.
  private static func append(string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
