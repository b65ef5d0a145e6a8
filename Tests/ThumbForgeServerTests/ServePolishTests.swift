import Foundation
import Hummingbird
import Logging
import Testing

@testable import ThumbForgeServer

/// The small things a team meets on its first day with `serve`: the favicon request, the
/// metrics' help lines, JSON log lines and the log settings.
@Suite("serve: favicon, metric help, JSON logs, log settings")
struct ServePolishTests {
  /// Before: every browser visit logged a 400 for `/favicon.ico` (parsed as an image path).
  @Test("/favicon.ico is 404, not 400")
  func favicon() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/favicon.ico", method: .get) {
        #expect($0.status == .notFound)
      }
      try await client.execute(uri: "/favicon.ico", method: .head) {
        #expect($0.status == .notFound)
      }
    }
  }

  @Test("every metric in /metrics has a # HELP and a # TYPE line")
  func metricHelp() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) { _ in }
      try await client.execute(uri: "/metrics", method: .get) { response in
        let lines = response.text.split(separator: "\n").map(String.init)
        let help = Set(
          lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
        let types = Set(
          lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] })
        let samples = lines.filter { !$0.hasPrefix("#") }.map { line in
          let name = line.prefix { $0 != "{" && $0 != " " }
          for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let family = name.dropLast(suffix.count)
            if types.contains(family) { return family }
          }
          return name
        }
        #expect(samples.count > 10)
        #expect(Set(samples).contains("thumbforge_requests_total"))
        for name in Set(samples) {
          #expect(help.contains(name), "no # HELP for \(name)")
          #expect(types.contains(name), "no # TYPE for \(name)")
        }
      }
    }
  }

  @Test("JSON log lines: one object per line with timestamp, level, message, metadata")
  func jsonLines() throws {
    let lines = WrittenLines()
    var logger = Logger(label: "test") { _ in JSONLogHandler { lines.append($0) } }
    logger[metadataKey: "server"] = "a"
    logger.warning(
      "say \"hi\"\n\tto C:\\ and \u{1}",
      metadata: ["n": "\(3)", "list": ["x", "y"], "nested": ["k": "v"]])
    logger.debug("below the level")
    let written = lines.all
    try #require(written.count == 1)
    let line = written[0]
    #expect(line.hasSuffix("}\n") && line.dropLast().firstIndex(of: "\n") == nil)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["level"] as? String == "warning")
    #expect(object["message"] as? String == "say \"hi\"\n\tto C:\\ and \u{1}")
    let metadata = try #require(object["metadata"] as? [String: Any])
    #expect(metadata["server"] as? String == "a")
    #expect(metadata["n"] as? String == "3")
    #expect(metadata["list"] as? [String] == ["x", "y"])
    #expect(metadata["nested"] as? [String: String] == ["k": "v"])
    let timestamp = try #require(object["timestamp"] as? String)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let parsed = try #require(formatter.date(from: timestamp), "\(timestamp)")
    #expect(abs(parsed.timeIntervalSinceNow) < 3600)
    #expect(timestamp.hasSuffix("Z"))
  }

  @Test("log settings: flags over environment over defaults; bad values named")
  func logSettings() throws {
    let none = try LogSettings(format: nil, level: nil, environment: [:])
    #expect(none.format == .text && none.level == .info)
    let environment = ["THUMBFORGE_LOG_FORMAT": "JSON", "THUMBFORGE_LOG_LEVEL": "debug"]
    let fromEnvironment = try LogSettings(format: nil, level: nil, environment: environment)
    #expect(fromEnvironment.format == .json && fromEnvironment.level == .debug)
    let flags = try LogSettings(format: "text", level: "error", environment: environment)
    #expect(flags.format == .text && flags.level == .error)
    #expect(flags.handler(label: "x").logLevel == .error)
    #expect(fromEnvironment.handler(label: "x") is JSONLogHandler)
    #expect(throws: (any Error).self) {
      try LogSettings(format: nil, level: nil, environment: ["THUMBFORGE_LOG_FORMAT": "xml"])
    }
    do {
      _ = try LogSettings(format: nil, level: "loud", environment: [:])
      Issue.record("accepted --log-level loud")
    } catch {
      #expect(
        error.message
          == "--log-level 'loud' is not one of trace, debug, info, notice, warning, error, critical"
      )
    }
  }
}

/// Lines a handler wrote, kept for a test.
final class WrittenLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) {
    lock.withLock { lines.append(line) }
  }

  var all: [String] { lock.withLock { lines } }
}
