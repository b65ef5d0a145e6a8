import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// libvips' own leak checker must find nothing after a realistic workload, failures
/// included.
///
/// libvips prints its leak report from `vips_shutdown()`, after which it cannot be used
/// again, so the check runs in a child process: the test binary runs itself
/// (`/proc/self/exe --testing-library swift-testing --filter …`) with
/// `THUMBFORGE_LEAK_CHILD` set, which enables only ``leakCheckChild()``. The child turns
/// leak checking on, runs the workload, drops every image and calls ``Vips/shutdown()``;
/// the parent reads the child's stderr.
@Suite struct LeakCheckTests {
  static let childVariable = "THUMBFORGE_LEAK_CHILD"
  static let childMode = ProcessInfo.processInfo.environment[childVariable]
  static let canSpawnSelf = ChildTestRun.isAvailable

  /// Words libvips' leak report prints when something is still alive or unreleased
  /// ("8 objects alive:", "2 VipsArea alive", "memory: 3 allocations, …", "files: 1 open",
  /// "error buffer: …"). A clean report is just "memory: high-water mark …".
  static let leakMarkers = ["alive", "allocations", "files:", "error buffer:"]

  static func runChild(mode: String) async throws -> ChildTestRun.Result {
    try await ChildTestRun.run(
      filter: "LeakCheckTests/leakCheckChild",
      environment: [childVariable: mode, "THUMBFORGE_VIPS_LEAK": "1"])
  }

  @Test(
    .enabled(if: childMode == nil, "runs only in the parent process"),
    .enabled(if: canSpawnSelf, "needs /proc/self/exe to re-run the test binary (Linux)"))
  func libvipsReportsNoLeaks() async throws {
    let child = try await Self.runChild(mode: "clean")
    // Swift Testing and libvips' report both write to stderr.
    let report = child.errors
    // The child really ran the workload and libvips really printed its report.
    #expect(
      report.contains("leakCheckChild() passed"), "child did not pass:\n\(report)")
    #expect(child.status == 0, "child failed:\n\(child.output)\n\(report)")
    #expect(report.contains("memory: high-water mark"), "no leak report:\n\(report)")
    for marker in Self.leakMarkers {
      #expect(!report.contains(marker), "libvips leak report:\n\(report)")
    }
  }

  @Test(
    .enabled(if: childMode == nil, "runs only in the parent process"),
    .enabled(if: canSpawnSelf, "needs /proc/self/exe to re-run the test binary (Linux)"))
  func leakCheckCatchesADeliberateLeak() async throws {
    // Guards against a vacuous check: an image kept alive past shutdown must be reported.
    let child = try await Self.runChild(mode: "leak")
    #expect(child.errors.contains("objects alive"), "leak not reported:\n\(child.errors)")
  }

  /// Kept alive on purpose in "leak" mode.
  nonisolated(unsafe) static var deliberateLeak: VipsImage?

  @Test(.enabled(if: childMode != nil, "runs only in the leak-check child process"))
  func leakCheckChild() throws {
    Vips.enableLeakChecking()
    try Self.workload()
    if Self.childMode == "leak" {
      Self.deliberateLeak = try VipsImage.solid(width: 4, height: 4, color: [1, 2, 3])
    }
    Vips.shutdown()
  }

  /// Loads, transforms, encodes and fails in every way the other tests do, then lets
  /// every image go.
  static func workload() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-leak-work")
    defer { try? FileManager.default.removeItem(at: directory) }
    let photo = try Fixtures.gradient(width: 120, height: 90, layout: .rgba)
    for format in [ImageFormat.png, .jpeg, .webp] {
      let bytes = try photo.encoded(as: format)
      let loaded = try VipsImage.load(bytes: bytes)
      let url = try Fixtures.write(loaded, as: format, named: "leak", in: directory)
      let reloaded = try VipsImage.load(path: url.path)
      _ = try reloaded.resize(width: 50, height: 40).toSRGB8().encoded(as: .png)
      _ = try Fixtures.truncatedCopy(of: url)
    }
    let base = try photo.flattened(background: [255, 255, 255])
    _ = try base.crop(x: 10, y: 10, width: 50, height: 40).pixelBytes()
    _ = try base.smartCrop(width: 40, height: 40, interesting: .attention).average()
    _ = try base.embed(x: 5, y: 5, width: 140, height: 100, extend: .white).average()
    _ = try base.settingInt("orientation", 6).autoRotated().pixel(x: 0, y: 0)
    _ = try base.composite(photo, mode: .over).average()
    _ = try base.addingAlpha().premultiplied().unpremultiplied().copiedToMemory()
    _ = try base.rotated(degrees: 90).flipped(horizontal: true).average()
    _ = try ImageComparison(photo, base)
    _ = try Fixtures.gradient(width: 30, height: 20, bitDepth: 16).toSRGB8().average()
    let thumbnailSource = directory.appendingPathComponent("leak.jpg").path
    _ = try VipsImage.thumbnail(path: thumbnailSource, width: 32, crop: .centre).average()

    // Failures must release whatever they allocated, too.
    for name in ["leak-truncated.jpg", "leak-truncated.png"] {
      let path = directory.appendingPathComponent(name).path
      _ = try? VipsImage.load(path: path).copiedToMemory()
      _ = try? VipsImage.load(path: path).average()
    }
    _ = try? VipsImage.load(path: directory.appendingPathComponent("missing.png").path)
    _ = try? VipsImage.load(path: Fixtures.textFile(in: directory).path)
    _ = try? VipsImage.load(bytes: Array("garbage".utf8))
    _ = try? base.crop(x: 100, y: 0, width: 50, height: 50)
  }
}
