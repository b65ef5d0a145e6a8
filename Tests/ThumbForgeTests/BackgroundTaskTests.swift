import Foundation
import Testing

@testable import ThumbForge

@Suite("Background task", .timeLimit(.minutes(10)))
struct BackgroundTaskTests {
  @Test("gives its value, or its error, to every caller")
  func results() throws {
    let task = BackgroundTask { (1...1000).reduce(0, +) }
    #expect(task.value() == 500_500)
    #expect(task.value() == 500_500)

    let failing = BackgroundTask { () throws(ConfigError) -> Int in
      throw ConfigError(file: "manifest.json", line: nil, key: "", message: "unreadable")
    }
    for _ in 0..<2 {
      #expect(throws: ConfigError.self) { try failing.value() }
    }
  }
}
