import Foundation
import Testing
import ThumbForgeTestSupport

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog

@Suite("Atomic file writes")
struct AtomicFileTests {
  @Test("writes create missing folders, replace whole files and leave no temporary file")
  func writesAndReplaces() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-atomic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("a/b/Contents.json").path
    try AtomicFile.write(Array("first version, longer".utf8), to: path, durable: false)
    try AtomicFile.write(Array("second".utf8), to: path)
    #expect(FileManager.default.contents(atPath: path) == Data("second".utf8))
    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("a/b").path)
    #expect(names == ["Contents.json"])
    // Any collection of bytes, contiguous or not.
    try AtomicFile.write(Array("abc".utf8).reversed(), to: path)
    #expect(FileManager.default.contents(atPath: path) == Data("cba".utf8))
  }

  @Test("the temporary file is beside its target, however the path is written")
  func temporaryPathIsBesideTheTarget() throws {
    #expect(AtomicFile.split("/a/b/c.png") == ("/a/b/", "c.png"))
    #expect(AtomicFile.split("c.png") == ("", "c.png"))
    #expect(AtomicFile.split("/c.png") == ("/", "c.png"))
    for path in ["/a/b/c.png", "c.png", "/c.png", "a b/Contents.json"] {
      let temporary = AtomicFile.temporaryPath(beside: path)
      let (folder, name) = AtomicFile.split(temporary)
      #expect(folder == AtomicFile.split(path).folder)
      #expect(name.hasPrefix(AtomicFile.temporaryPrefix + "\(getpid())-"))
      #expect(name.hasSuffix("-" + AtomicFile.split(path).name))
      #expect(AtomicFile.temporaryPath(beside: path) != temporary)
    }
  }

  @Test("a write into a missing folder of an existing one lands in place")
  func writesIntoOneMissingFolder() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-atomic")
    defer { try? FileManager.default.removeItem(at: folder) }
    try AtomicFile.write([1], to: folder.path + "/one/A.png", durable: false)
    try AtomicFile.write([2], to: folder.path + "/one/B.png", durable: false)
    #expect(FileManager.default.contents(atPath: folder.path + "/one/A.png") == Data([1]))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path + "/one").sorted()
        == ["A.png", "B.png"])
  }

  @Test("a write returns the facts the file then has on disk, its change time too")
  func writeReturnsTheFilesStamp() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-atomic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("x/A@2x.png").path
    for (bytes, durable) in [
      (Array(repeating: UInt8(7), count: 70_001), false), ([1, 2, 3], true),
    ] {
      let written = try AtomicFile.write(bytes, to: path, durable: durable)
      let now = try #require(FileFacts.current(at: path))
      #expect(written.size == bytes.count)
      #expect(written == now)  // the change time too, which the rename moved
    }
  }

  @Test("a write that cannot happen throws naming the path and leaves the old file alone")
  func failureKeepsTheOldFile() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-atomic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let blocker = folder.appendingPathComponent("file")
    try Data("not a folder".utf8).write(to: blocker)
    let inside = blocker.appendingPathComponent("x.png").path
    let error = try #require(throws: (any Error).self) {
      try AtomicFile.write([1, 2, 3], to: inside)
    }
    #expect("\(error)".contains(inside) || (error as NSError).userInfo.description.contains(inside))
    #expect(FileManager.default.contents(atPath: blocker.path) == Data("not a folder".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
  }

  @Test("a sweep removes leftovers of dead runs only, recursively or in one folder")
  func sweepRemovesOnlyLeftoversOfDeadRuns() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-atomic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let dead = AtomicFile.temporaryPrefix + "2147483600-17-manifest.json"
    let alive = AtomicFile.temporaryPrefix + "\(getpid())-18-manifest.json"
    let nested = "Group/" + AtomicFile.temporaryPrefix + "2147483600-19-a.png"
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Group"), withIntermediateDirectories: true)
    for name in [dead, alive, nested, "manifest.json"] {
      try Data("x".utf8).write(to: folder.appendingPathComponent(name))
    }
    #expect(AtomicFile.sweep(folder: folder.path, recursive: false) == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(dead).path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(alive).path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(nested).path))
    #expect(AtomicFile.sweep(folder: folder.path) == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(nested).path))
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path))
  }
}
