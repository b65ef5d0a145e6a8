import Foundation
import Testing

/// The binary plugin package that Scripts/release.sh writes (Scripts/release/
/// BinaryPlugin.Package.swift) declares the plugin exactly as Package.swift does: same verb,
/// description and permission, so the binary plugin behaves as the source one.
@Suite("Release templates")
struct ReleaseTemplateTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `.plugin(name: "ThumbForgePlugin", …)` target of a manifest, spaces collapsed.
  static func pluginTarget(in relative: String) throws -> String {
    let text = try String(
      contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    let start = try #require(text.range(of: ".plugin(\n      name: \"ThumbForgePlugin\""))
    let end = try #require(
      text.range(of: "dependencies: [\"thumbforge\"]", range: start.upperBound..<text.endIndex))
    return text[start.lowerBound..<end.upperBound].split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
  }

  @Test("the binary plugin package declares the plugin as Package.swift does")
  func pluginDeclarationsAgree() throws {
    let source = try Self.pluginTarget(in: "Package.swift")
    let binary = try Self.pluginTarget(in: "Scripts/release/BinaryPlugin.Package.swift")
    #expect(source.contains("verb: \"thumbforge\""))
    #expect(binary == source)
  }
}
