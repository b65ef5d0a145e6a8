import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgePlanning

@Suite("A truncated master is said to be truncated, with its declared size")
struct TruncationDiagnosisTests {
  /// Complete files of each container the diagnosis walks, 600×300.
  static func files() throws -> [(GeneratedMaster.Format, [UInt8])] {
    var random = PropertyRandom(seed: 45)
    var made: [(GeneratedMaster.Format, [UInt8])] = []
    for (format, layout) in [
      (GeneratedMaster.Format.png, GeneratedMaster.Layout.rgba), (.jpeg, .rgb), (.gif, .palette),
      (.webp, .rgb), (.webp, .rgba),
    ] {
      var master = GeneratedMaster(
        path: "m.\(format.rawValue)", format: format, width: 600, height: 300, layout: layout)
      try master.encode(seed: 7, random: &random)
      made.append((format, master.bytes))
    }
    return made
  }

  @Test(
    "every cut of a PNG, JPEG, GIF and WebP past its header names the size; whole files nothing")
  func everyCut() throws {
    for (format, bytes) in try Self.files() {
      #expect(TruncationDiagnosis.reason(bytes) == nil, "\(format) whole")
      let headerEnd = format == .jpeg ? 200 : 40
      let step = max(1, bytes.count / 400)
      for keep in stride(from: headerEnd, to: bytes.count - 1, by: step) {
        let reason = TruncationDiagnosis.reason(Array(bytes.prefix(keep)))
        let size = ErrorWording.formatBytes(keep)
        // A GIF cut just after a ';' inside its data, or a JPEG cut after an FF D9 pair in
        // its entropy-coded data, cannot be told from a whole file by the container.
        if format == .gif || format == .jpeg, reason == nil { continue }
        let name = ["png": "PNG", "jpg": "JPEG", "gif": "GIF", "webp": "WebP"][format.rawValue]!
        #expect(
          reason == "\(name) truncated after \(size) (its header declares 600×300)",
          "\(format) cut at \(keep) of \(bytes.count): \(reason ?? "nil")")
      }
    }
  }

  @Test("hostile bytes: random, flipped and cut files never trap")
  func hostile() throws {
    var random = PropertyRandom(seed: 4545)
    let seeds = try Self.files().map(\.1)
    for _ in 0..<3000 {
      var bytes = random.pick(seeds)
      bytes = Array(bytes.prefix(random.int(0...bytes.count)))
      for _ in 0..<random.int(0...8) where !bytes.isEmpty {
        bytes[random.int(0...(bytes.count - 1))] = UInt8(random.int(0...255))
      }
      _ = TruncationDiagnosis.reason(bytes)
      _ = TruncationDiagnosis.reason(
        (0..<random.int(0...64)).map { _ in UInt8(random.int(0...255)) })
    }
  }

  @Test("a build reports truncated PNG flags as truncated, naming each file, and goes on")
  func buildSaysTruncated() throws {
    let harness = try RenderHarness(config: "rules: [{ match: \"**\", recipes: [flag] }]\n")
    defer { harness.remove() }
    let png = try Self.files()[0].1
    for index in 0..<5 {
      try Data(png.prefix(3000)).write(
        to: harness.folder.appendingPathComponent("tp\(index)@3x.png"))
    }
    try harness.add(
      try VipsImage.solid(width: 120, height: 75, color: [9, 90, 200]), as: "ok@3x.png",
      format: .png)
    let (_, images, problems) = try harness.render()
    #expect(images.keys.contains { $0.hasPrefix("ok-flag.imageset/") }, "\(images.keys.sorted())")
    #expect(problems.count == 5, "\(problems)")
    for problem in problems {
      #expect(problem.path.hasPrefix("tp"))
      #expect(
        problem.reason == "PNG truncated after 2.9 KB (its header declares 600×300)",
        "\(problem.path): \(problem.reason)")
    }
  }
}
