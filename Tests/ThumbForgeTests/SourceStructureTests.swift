import Foundation
import Testing

/// The shape of the code a newcomer relies on, checked on the source text: the core's folders
/// use only the folders below them (docs/architecture.md, "Layers"), no function is longer than a
/// screen, and the package's public surface stays small.
@Suite("Source structure")
struct SourceStructureTests {
  /// Checks the sources under the package root this file sits in.
  static let sources = SourceTree(
    root: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent())

  @Test("every folder of the core uses only the folders below it")
  func layersPointDown() throws {
    let core = try Self.sources.layers(of: "Sources/ThumbForge")
    let listed = Set(SourceTree.coreLayers)
    #expect(
      Set(core.keys) == listed,
      "the folders of Sources/ThumbForge and SourceTree.coreLayers differ: place a new folder in the list (and in the Layers table of docs/architecture.md)"
    )
    let upward = try Self.sources.upwardUses(in: "Sources/ThumbForge", order: SourceTree.coreLayers)
    #expect(upward.isEmpty, "upward uses:\n\(upward.joined(separator: "\n"))")
  }

  @Test("the layer check finds an upward use")
  func layerCheckCanFail() {
    let files = [
      SourceFile(folder: "Low", name: "A.swift", text: "struct Alpha { var b: Beta }\n"),
      SourceFile(folder: "High", name: "B.swift", text: "struct Beta { var a: Alpha }\n"),
    ]
    let upward = SourceTree.upwardUses(files, order: ["Low", "High"])
    #expect(upward == ["Low/A.swift uses Beta (High)"])
  }

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
