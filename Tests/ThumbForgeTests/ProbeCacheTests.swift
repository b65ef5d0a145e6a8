import Foundation
import Testing

@testable import ThumbForge

@Suite("Probe cache")
struct ProbeCacheTests {
  @Test("round-trips sources and outputs, including 19-digit nanosecond times")
  func roundTrip() throws {
    var cache = ProbeCache()
    cache.sources["Flags/United States@3x.png"] = ProbeResult(
      byteSize: 1234, modified: 1_763_765_432_123_456_789, hash: "ab12", width: 600, height: 300,
      hasAlpha: true, isPlainSRGB: false)
    cache.sources["Zürich.jpg"] = ProbeResult(
      byteSize: 1, modified: 0, hash: "ff", width: 1, height: 2, hasAlpha: false, isPlainSRGB: true)
    cache.outputs["Flags/A.imageset/A@2x.png"] = FileStamp(
      byteSize: 99, modified: 9_000_000_000_000_000_000, hash: "cd34")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    try cache.write(to: url)
    #expect(ProbeCache.read(at: url) == cache)
  }

  @Test("a missing, foreign or damaged file reads as an empty cache")
  func damaged() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data("{\"version\": 1}".utf8).write(to: url)
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data("thumbforge-cache 2\nS\tx\tnot-a-number\t1\th\t1\t1\t0\t0\nO\ty\t5\t6\th\n".utf8)
      .write(to: url)
    let cache = ProbeCache.read(at: url)
    #expect(cache.sources.isEmpty && cache.outputs["y"]?.byteSize == 5)
  }
}
