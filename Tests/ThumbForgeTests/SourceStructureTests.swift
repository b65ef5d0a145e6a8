import Foundation
import Testing

/// The shape of the code a newcomer relies on, checked on the source text: no function is longer
/// than a screen, and the package's public surface stays small. (The direction of the core's
/// modules is the compiler's to enforce: docs/architecture.md, "Modules".)
@Suite("Source structure")
struct SourceStructureTests {
  /// Checks the sources under the package root this file sits in.
  static let sources = SourceTree(
    root: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent())

  @Test("no function is longer than 60 lines")
  func functionsFitAScreen() throws {
    var long: [String] = []
    for folder in ["Sources", "Tests", "Fuzz", "Plugins"] {
      for file in try Self.sources.swiftFiles(under: folder) {
        for function in SwiftText.functions(in: file.text) where function.lines > 60 {
          long.append("\(file.folder)/\(file.name):\(function.line) \(function.lines) lines")
        }
      }
    }
    #expect(long.isEmpty, "functions over 60 lines:\n\(long.joined(separator: "\n"))")
  }

  @Test("the function measure counts a body's lines, not strings or comments")
  func functionMeasure() {
    let text = """
      struct S {
        // func commented() {
        func short() {
          let s = "{ not a brace"
        }
        init(x: Int = { 1 }()) {
          _ = x
          /* } */
        }
        func requirement()
      }
      """
    let functions = SwiftText.functions(in: text)
    #expect(functions.map(\.line) == [3, 6])
    #expect(functions.map(\.lines) == [3, 4])
  }

  @Test("the package declares at most 20 public types")
  func smallPublicSurface() throws {
    var types: [String] = []
    for file in try Self.sources.swiftFiles(under: "Sources") {
      types += SwiftText.publicTypes(in: file.text).map { "\(file.folder)/\(file.name): \($0)" }
    }
    #expect(types.count <= 20, "public types (\(types.count)):\n\(types.joined(separator: "\n"))")
  }
}
