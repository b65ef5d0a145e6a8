internal import Foundation
package import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A swift-log handler that writes one JSON object per line, for log collectors that parse
/// lines (`--log-format json`):
///
/// ```json
/// {"level":"info","message":"GET /healthz 200","metadata":{"ms":"0"},"timestamp":"2026-11-26T15:04:05.123Z"}
/// ```
///
/// Keys are sorted; metadata values keep their shape (strings, arrays, objects). Each line is
/// written with one `write(2)`, so lines from concurrent requests never interleave.
package struct JSONLogHandler: LogHandler {
  package var logLevel: Logger.Level = .info
  package var metadata: Logger.Metadata = [:]
  package var metadataProvider: Logger.MetadataProvider?
  private let sink: @Sendable (String) -> Void

  /// A handler writing each line to `sink` (standard error by default).
  package init(sink: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
    self.sink = sink
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  package func log(event: LogEvent) {
    var merged = metadata
    if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
    if let own = event.metadata { merged.merge(own) { $1 } }
    sink(Self.line(level: event.level, message: event.message.description, metadata: merged))
  }

  /// The JSON line (with its newline) for one event logged now, written by Foundation's
  /// `JSONSerialization` (keys sorted: `level`, `message`, `metadata`, `timestamp`).
  static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
    let object: [String: Any] = [
      "timestamp": timestamp(), "level": level.rawValue, "message": message,
      "metadata": json(.dictionary(metadata)),
    ]
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "{\"level\":\"error\",\"message\":\"a log line could not be encoded\"}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// Writes `line` to standard error in one call.
  @Sendable package static func standardError(_ line: String) {
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

  /// A metadata value as a JSON-serialisable Foundation value (its shape kept).
  private static func json(_ value: Logger.Metadata.Value) -> Any {
    switch value {
    case .string(let string): string
    case .stringConvertible(let convertible): convertible.description
    case .array(let values): values.map(json)
    case .dictionary(let dictionary): dictionary.mapValues(json)
    }
  }
}
