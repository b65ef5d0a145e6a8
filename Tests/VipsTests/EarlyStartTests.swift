import CVips
import Foundation
import Synchronization
import Testing
import ThumbForgeTestSupport
import Vips

/// libvips started early on a thread of its own (`Vips.startEarly(warming:)`) must leave the
/// process exactly as a start on first use does: the same operations (the deferred format
/// modules included), the environment as it was, an empty error buffer.
///
/// Only the first start of a process counts, so each mode runs in a child process: the test
/// binary runs itself (`/proc/self/exe --filter EarlyStartTests/earlyStartChild`) with
/// `THUMBFORGE_EARLY_CHILD` set to `early` or `plain`; the child prints what it saw.
@Suite struct EarlyStartTests {
  static let childVariable = "THUMBFORGE_EARLY_CHILD"
  static let childMode = ProcessInfo.processInfo.environment[childVariable]
  static let canSpawnSelf = ChildTestRun.isAvailable

  /// Operations from libvips itself and from each of its deferred modules (HEIF, PDF,
  /// ImageMagick, JPEG XL, OpenSlide), plus one that exists nowhere.
  static let operations = [
    "jpegload", "pngload", "svgload", "heifload", "pdfload", "magickload", "jxlload",
    "openslideload", "heifsave_buffer", "nosuchoperation",
  ]

  static func runChild(mode: String, home: String? = nil) async throws -> [String: String] {
    let child = try await ChildTestRun.run(
      filter: "EarlyStartTests/earlyStartChild",
      environment: [childVariable: mode, "VIPSHOME": home])
    var facts: [String: String] = ["status": "\(child.status)"]
    for line in child.output.split(separator: "\n") where line.hasPrefix("EARLY ") {
      let pair = line.dropFirst(6).split(separator: "=", maxSplits: 1)
      facts[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
    }
    return facts
  }

  @Test(
    .enabled(if: childMode == nil, "runs only in the parent process"),
    .enabled(if: canSpawnSelf, "needs /proc/self/exe to re-run the test binary (Linux)"))
  func earlyStartLeavesTheProcessAsAStartOnFirstUse() async throws {
    let early = try await Self.runChild(mode: "early")
    let plain = try await Self.runChild(mode: "plain")
    for facts in [early, plain] {
      #expect(facts["status"] == "0", "child failed: \(facts)")
      #expect(facts["vipshome"] == "unset", "VIPSHOME left changed: \(facts)")
      #expect(facts["errors"] == "", "error buffer not empty: \(facts)")
      #expect(facts["decoded"] == "8x6", "\(facts)")
    }
    // The early start really ran beside the caller: the module folder was hidden from
    // libvips while it started (and the plain start had not begun).
    #expect(early["hidden"]?.hasPrefix("/nonexistent/") == true, "\(early)")
    #expect(plain["hidden"] == "unset", "\(plain)")
    // The same operations either way, found after the deferred modules are loaded.
    #expect(early["operations"] != nil && early["operations"] == plain["operations"])
    #expect(early["operations"]?.contains("jpegload") == true, "\(early)")
    #expect(early["operations"]?.contains("nosuchoperation") == false, "\(early)")
    // What the caller asked to run first ran on the start-up thread, and was over by the
    // time libvips was first needed.
    #expect(early["first"] == "other-thread", "\(early)")
    #expect(plain["first"] == "not-run", "\(plain)")
  }

  @Test(
    .enabled(if: childMode == nil, "runs only in the parent process"),
    .enabled(if: canSpawnSelf, "needs /proc/self/exe to re-run the test binary (Linux)"))
  func earlyStartKeepsAVIPSHOMEOfTheUsers() async throws {
    // libvips then looks for its modules where that names, early or not.
    let home = "/nonexistent/thumbforge-users-own-vipshome"
    let early = try await Self.runChild(mode: "early", home: home)
    let plain = try await Self.runChild(mode: "plain", home: home)
    for facts in [early, plain] {
      #expect(facts["status"] == "0", "child failed: \(facts)")
      #expect(facts["hidden"] == home && facts["vipshome"] == home, "\(facts)")
      #expect(facts["decoded"] == "8x6", "\(facts)")
    }
    #expect(early["operations"] != nil && early["operations"] == plain["operations"])
  }

  /// Where the child's `first` work ran: 0 not yet, 1 on the caller's thread, 2 on another.
  static let firstRan = Atomic<Int>(0)
  /// The thread that asked for the early start.
  nonisolated(unsafe) static var caller = pthread_self()

  @Test(.enabled(if: childMode != nil, "runs only in the early-start child process"))
  func earlyStartChild() throws {
    if Self.childMode == "early" {
      Self.caller = pthread_self()
      Vips.startEarly(warming: ["jpegload", "copy", "nosuchoperation"]) {
        let here = pthread_equal(pthread_self(), Self.caller) != 0
        Self.firstRan.store(here ? 1 : 2, ordering: .sequentiallyConsistent)
      }
    }
    let hidden = getenv("VIPSHOME").map { String(cString: $0) } ?? "unset"
    try Vips.initialize()
    let first = ["not-run", "caller-thread", "other-thread"][
      Self.firstRan.load(ordering: .sequentiallyConsistent)]
    let home = getenv("VIPSHOME").map { String(cString: $0) } ?? "unset"
    let errors = String(cString: vips_error_buffer())
    let found = Self.operations.filter { Vips.hasOperation($0) }
    let image = try VipsImage.load(
      bytes: try Fixtures.gradient(width: 8, height: 6).encoded(as: .jpeg))
    print("EARLY hidden=\(hidden)")
    print("EARLY vipshome=\(home)")
    print("EARLY errors=\(errors)")
    print("EARLY operations=\(found.joined(separator: ","))")
    print("EARLY decoded=\(image.width)x\(image.height)")
    print("EARLY first=\(first)")
  }
}
