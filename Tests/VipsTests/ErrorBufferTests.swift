import CVips
import Foundation
import Synchronization
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// libvips keeps one error buffer for the whole process; a failure must carry its own
/// message, not a line another file's decode left behind.
@Suite("libvips' error buffer: each failure its own message")
struct ErrorBufferTests {
  /// Leaves a line in libvips' buffer as libheif's loader does after a read it recovered
  /// from (`…/x.avif: bad seek to 285957`).
  static func leaveLine(about file: String) {
    try? Vips.initialize()  // the buffer's lock is made by vips_init
    withVaList([]) { vips_verror("heifload", "\(file): bad seek to 285957", $0) }
  }

  @Test("a loader's failure drops a line left by another file's decode")
  func leftoverDropped() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-errorbuffer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("corrupt-header.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 7, count: 1000)).write(to: bad)
    Self.leaveLine(about: folder.appendingPathComponent("x.avif").path)
    var message = ""
    do {
      _ = try VipsImage.load(path: bad.path).copiedToMemory()
      Issue.record("a damaged JPEG decoded")
    } catch {
      message = error.message
    }
    #expect(!message.contains("x.avif"), "\(message)")
  }

  @Test(
    "under concurrency: eight threads' failures, each after a foreign line, name only their own files"
  )
  func concurrentFailures() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-errorbuffer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try (0..<8).map { index in
      // A PNG signature, then garbage: libvips' PNG loader is asked directly and fails.
      let url = folder.appendingPathComponent("damaged-\(index).png")
      try Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("IHDR garbage \(index)".utf8)
      )
      .write(to: url)
      return url.path
    }
    let wrong = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: files.count) { index in
      for round in 0..<25 {
        // What an AVIF decode just before (on this thread or another) leaves behind.
        Self.leaveLine(about: "/elsewhere/other-\(index)-\(round).avif")
        do {
          _ = try VipsImage.load(path: files[index])
        } catch let error as VipsError {
          let others = files.filter { $0 != files[index] && error.message.contains($0) }
          if error.message.contains("/elsewhere/") || !others.isEmpty {
            wrong.withLock { $0.append("\(files[index]): \(error.message)") }
          }
        } catch {
          wrong.withLock { $0.append("\(files[index]): \(error)") }
        }
      }
    }
    vips_error_clear()
    #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(3) })")
  }

  @Test("namesAnotherFile tells a path's own lines from other files' lines")
  func lineFilter() {
    let own = "/tmp/My Folder/a.jpg"
    #expect(!VipsError.namesAnotherFile("VipsJpeg: Premature end of JPEG file", than: own))
    #expect(
      !VipsError.namesAnotherFile(
        "VipsForeignLoad: \"/tmp/My Folder/a.jpg\" is not a known file format", than: own))
    #expect(VipsError.namesAnotherFile("/tmp/x.avif: bad seek to 285957", than: own))
    #expect(
      VipsError.namesAnotherFile(
        "VipsForeignLoad: \"/b/c.png\" is not a known file format", than: nil))
    #expect(!VipsError.namesAnotherFile("image/jpeg is not supported", than: own))
  }
}
