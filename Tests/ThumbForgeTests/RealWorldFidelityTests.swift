import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgePlanning

/// Real-world image files from a folder outside the repository (THUMBFORGE_REALWORLD: for
/// example another image library's test fixtures; CONTRIBUTING.md, Development), each built through
/// `variants` at its own size: every file with an output matches the libvips reference
/// (FidelityReference: upright, alpha separated and scaled to 8 bits, colour converted with
/// the embedded profile), and every file without one has a one-line problem naming it with
/// a reason that names no other file. Skipped, with a message, when the folder is absent.
@Suite("Real-world files (THUMBFORGE_REALWORLD)")
struct RealWorldFidelityTests {
  static let folder = ProcessInfo.processInfo.environment["THUMBFORGE_REALWORLD"]

  static let extensions: Set<String> = [
    "jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "avif", "heic", "heif", "svg", "pdf",
  ]

  /// The image files of the folder, by name (sorted, so a run is reproducible).
  static func files(in folder: String) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
      .map { URL(fileURLWithPath: folder).appendingPathComponent($0) }
  }

  @Test("each readable file matches the reference; each other one is its own one-line error")
  func realWorldFiles() throws {
    guard let folder = Self.folder else {
      print("RealWorldFidelityTests: THUMBFORGE_REALWORLD is not set; skipped")
      return
    }
    let files = try Self.files(in: folder)
    try #require(!files.isEmpty, "no image files in \(folder)")
    let harness = try RenderHarness(config: "scales: [1]\nmaster-scale: 1\n")
    defer { harness.remove() }
    // Copied under names of their own, so that no two files make one image set.
    var names: [String] = []
    for (index, file) in files.enumerated() {
      let name = "f\(index).\(file.pathExtension)"
      try FileManager.default.copyItem(at: file, to: harness.folder.appendingPathComponent(name))
      names.append(name)
    }
    let (_, images, problems) = try harness.render()
    var matched = 0
    var refused = 0
    var failures: [String] = []
    for (index, file) in files.enumerated() {
      let stem = "f\(index)"
      let prefix = "\(stem).imageset/\(stem)@1x."
      let own = problems.filter { $0.path == names[index] }
      if let key = images.keys.first(where: { $0.hasPrefix(prefix) }), let output = images[key] {
        if let failure = try Self.compare(output, key: key, master: names[index], harness) {
          failures.append("\(file.lastPathComponent): \(failure)")
        } else {
          matched += 1
        }
      } else if let failure = Self.refusal(own, stem: stem, count: files.count) {
        failures.append("\(file.lastPathComponent): \(failure)")
      } else {
        refused += 1
        print("real-world: \(file.lastPathComponent): \(own.map(\.reason).joined(separator: "; "))")
      }
    }
    print("RealWorldFidelityTests: \(files.count) files, \(matched) match, \(refused) refused")
    #expect(failures.isEmpty, "\(failures.count) files:\n\(failures.joined(separator: "\n"))")
  }

  /// Why an output does not match its reference, or nil when it does.
  static func compare(_ output: VipsImage, key: String, master: String, _ harness: RenderHarness)
    throws -> String?
  {
    let path = harness.folder.appendingPathComponent(master).path
    let reference = try FidelityReference(masterPath: path)
    let (width, height) = (reference.full.width, reference.full.height)
    guard output.width == width, output.height == height else {
      return "size \(output.width)x\(output.height), expected \(width)x\(height)"
    }
    let expected = try reference.resized(width: width, height: height)
    let measure = try FidelityDifferentialTests.compare(
      expected, output, jpeg: key.hasSuffix(".jpg"))
    // A master shipped as it is is the master's own pixels: compared unencoded.
    if measure.passes { return nil }
    if try FidelityDifferentialTests.compare(expected, output, jpeg: false).passes { return nil }
    return "\(key): \(measure)"
  }

  /// What is wrong with the problems given for a file without an output, or nil when there
  /// is one line naming it with a reason of its own.
  static func refusal(_ own: [Problem], stem: String, count: Int) -> String? {
    guard let problem = own.first else { return "no output and no problem naming it" }
    if problem.reason.contains("\n") { return "a reason over several lines: \(problem.reason)" }
    let others = (0..<count).map { "f\($0)." }.filter { $0 != "\(stem)." }
    if let other = others.first(where: { problem.reason.contains($0) }) {
      return "the reason names another file (\(other)…): \(problem.reason)"
    }
    return nil
  }
}
