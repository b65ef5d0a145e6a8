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
    let unit = try Self.diskSpaceOfASmallFile()
    let cache = try ResultCache(folder: folder, capacity: 3 * unit)
    for n in 0..<3 { cache.store([UInt8](repeating: UInt8(n), count: 100), for: Self.key(n)) }
    #expect(cache.bytes(for: Self.key(0)) == [UInt8](repeating: 0, count: 100))  // now recent
    cache.store([UInt8](repeating: 9, count: 100), for: Self.key(9))
    #expect(cache.bytes(for: Self.key(1)) == nil)  // the least recently used went
    #expect(cache.bytes(for: Self.key(0)) != nil && cache.bytes(for: Self.key(2)) != nil)
    #expect(cache.usage.bytes == 3 * unit && cache.usage.entries == 3)
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.key(1)).path))
  }

  @Test("a result used before a restart outlives one stored after it, in the next start's index")
  func useSurvivesARestart() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let unit = try Self.diskSpaceOfASmallFile()
    do {
      let cache = try ResultCache(folder: folder, capacity: 2 * unit)
      cache.store([UInt8](repeating: 0, count: 100), for: Self.key(0))
      cache.store([UInt8](repeating: 1, count: 100), for: Self.key(1))
      // Stored a day apart (two stores can share a clock tick of the file system).
      for (n, age) in [(0, 2.0), (1, 1.0)] {
        try FileManager.default.setAttributes(
          [.modificationDate: Date(timeIntervalSinceNow: -age * 86_400)],
          ofItemAtPath: folder.appendingPathComponent(Self.key(n)).path)
      }
      #expect(cache.bytes(for: Self.key(0)) != nil)  // used last
    }
    // Restarted with room for one: the least recently used of the two goes.
    let reopened = try ResultCache(folder: folder, capacity: unit)
    #expect(reopened.bytes(for: Self.key(0)) == [UInt8](repeating: 0, count: 100))
    #expect(reopened.bytes(for: Self.key(1)) == nil)
  }

  @Test("the index is rebuilt from the folder; stray and half-written files are not results")
  func reopen() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let cache = try ResultCache(folder: folder, capacity: 1_000_000)
      cache.store([1, 2, 3], for: Self.key(1))
    }
    try Data([7]).write(to: folder.appendingPathComponent("notes.txt"))
    try Data([7]).write(to: folder.appendingPathComponent(".tmp-\(Self.key(2))-x"))
    let reopened = try ResultCache(folder: folder, capacity: 1_000_000)
    #expect(reopened.bytes(for: Self.key(1)) == [1, 2, 3])
    #expect(reopened.usage.entries == 1)
    #expect(reopened.bytes(for: "notes.txt") == nil)
    #expect(reopened.bytes(for: "../" + Self.key(1)) == nil)
  }

  /// The disk space a 100-byte cache file takes here (a whole block on most file systems).
  static func diskSpaceOfASmallFile() throws -> Int {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = try ResultCache(folder: folder, capacity: 1 << 30)
    cache.store([UInt8](repeating: 1, count: 100), for: Self.key(1))
    return cache.usage.bytes
  }

  /// 300 small outputs counted as bytes took many times `cache-size` on disk.
  @Test("the cap counts disk blocks: 300 small results keep the folder's disk use within it")
  func diskBlocks() throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let capacity = 100_000
    let cache = try ResultCache(folder: folder, capacity: capacity)
    for n in 0..<300 {
      cache.store([UInt8](repeating: UInt8(n % 256), count: 360), for: Self.key(n))
    }
    var used = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      var info = stat()
      #expect(stat(folder.appendingPathComponent(name).path, &info) == 0)
      used += Int(info.st_blocks) * 512
    }
    #expect(used <= capacity, "\(used) bytes on disk for a cap of \(capacity)")
    #expect(cache.usage.bytes == used)
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
