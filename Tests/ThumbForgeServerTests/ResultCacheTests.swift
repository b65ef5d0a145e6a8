import Foundation
import Testing

@testable import ThumbForgeServer

@Suite("serve: result cache", .timeLimit(.minutes(10)))
struct ResultCacheTests {
  static func key(_ n: Int) -> String { String(format: "%064x", n) }

  static func folder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("tf-cache-\(UUID().uuidString)")
  }

  @Test("least recently used results are evicted past the cap; use refreshes a result")
  func eviction() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = try ResultCache(folder: folder, capacity: 300)
    for n in 0..<3 { cache.store([UInt8](repeating: UInt8(n), count: 100), for: Self.key(n)) }
    #expect(cache.bytes(for: Self.key(0)) == [UInt8](repeating: 0, count: 100))  // now recent
    cache.store([UInt8](repeating: 9, count: 100), for: Self.key(9))
    #expect(cache.bytes(for: Self.key(1)) == nil)  // the least recently used went
    #expect(cache.bytes(for: Self.key(0)) != nil && cache.bytes(for: Self.key(2)) != nil)
    #expect(cache.usage.bytes == 300 && cache.usage.entries == 3)
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.key(1)).path))
  }

  @Test("the index is rebuilt from the folder; stray and half-written files are not results")
  func reopen() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let cache = try ResultCache(folder: folder, capacity: 1000)
      cache.store([1, 2, 3], for: Self.key(1))
    }
    try Data([7]).write(to: folder.appendingPathComponent("notes.txt"))
    try Data([7]).write(to: folder.appendingPathComponent(".tmp-\(Self.key(2))-x"))
    let reopened = try ResultCache(folder: folder, capacity: 1000)
    #expect(reopened.bytes(for: Self.key(1)) == [1, 2, 3])
    #expect(reopened.usage.entries == 1)
    #expect(reopened.bytes(for: "notes.txt") == nil)
    #expect(reopened.bytes(for: "../" + Self.key(1)) == nil)
  }

  @Test("a result larger than the whole cache is not kept")
  func oversized() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = try ResultCache(folder: folder, capacity: 10)
    cache.store([UInt8](repeating: 1, count: 11), for: Self.key(1))
    #expect(cache.bytes(for: Self.key(1)) == nil && cache.usage.entries == 0)
  }
}
