import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig

/// The recipe key table is the single definition: it covers every field, accepts and refuses
/// keys by kind, and the docs show exactly what it says.
@Suite("Recipe key table")
struct RecipeTableTests {
  @Test("every stored field of Recipe but name and kind is set by exactly one row")
  func everyFieldHasARow() {
    let fields = Mirror(reflecting: Recipe.builtin(.fit)).children.compactMap(\.label)
      .filter { $0 != "name" && $0 != "kind" }
    let rowFields = RecipeParameter.all.map {
      $0.fieldName.replacingOccurrences(of: "\\Recipe.", with: "")
    }
    #expect(Set(fields) == Set(rowFields))
    #expect(rowFields.count == Set(rowFields).count)
  }

  @Test("a key on a kind that does not accept it is an error naming the kinds that do")
  func keysAreCheckedByKind() throws {
    #expect {
      try ConfigLoader.parse("recipes:\n  fill: { pad: true }\n", file: "thumbforge.yml")
    } throws: { error in
      "\(error)"
        == "thumbforge.yml:2: recipes.fill.pad: 'pad' does not apply to fill recipes (only to: fit)"
    }
    #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("recipes:\n  variants: { size: 10 }\n", file: "thumbforge.yml")
    }
    let config = try ConfigLoader.parse(
      "recipes:\n  hero: { kind: fit, pad: true, size: 10 }\n", file: "thumbforge.yml")
    #expect(config.recipes["hero"]?.pad == true)
  }

  @Test("built-in defaults come from the table")
  func defaultsFromTheTable() {
    let flag = Recipe.builtin(.flag)
    #expect(flag.size == PointSize(width: 40, height: 25) && flag.cornerRadius == 5)
    #expect(flag.strokeWidth == 1 && flag.format == .png && flag.upscale == .warn)
    #expect(Recipe.builtin(.fill).size == PointSize(width: 400, height: 200))
    #expect(Recipe.builtin(.variants).format == .auto && Recipe.builtin(.variants).quality == 82)
  }

  @Test("the README's recipe table states each kind's built-in size and scales")
  func readmeRecipeDefaults() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    func row(_ kind: RecipeKind) -> String? {
      readme.split(separator: "\n").first { $0.hasPrefix("| `\(kind.rawValue)` |") }.map(
        String.init)
    }
    let variants = try #require(row(.variants))
    let scales = Recipe.builtin(.variants).scales.map(String.init).joined(separator: ", ")
    #expect(variants.contains("(default `[\(scales)]`)"), "\(variants)")
    for kind in [RecipeKind.fit, .fill, .flag, .tile] {
      let line = try #require(row(kind), "no README row for \(kind)")
      let size = Recipe.builtin(kind).size
      let text = "\(Int(size.width))×\(Int(size.height)) pt"
      #expect(line.contains(text), "README's \(kind) row should say \(text): \(line)")
    }
  }

  /// The pages that hold the generated key tables, each between its markers: the
  /// configuration reference (top-level and recipe keys), the serving page (`serve:`) and
  /// the destination pages (`web:`, `android:`).
  static var generatedTables: [(page: String, marker: String, table: () -> String)] {
    [
      ("docs/configuration.md", "settings", ConfigReference.settingsTable),
      ("docs/configuration.md", "recipe-keys", ConfigReference.recipeTable),
      ("docs/serving.md", "serve-keys", ConfigReference.serveTable),
      ("docs/web.md", "web-keys", ConfigReference.webTable),
      ("docs/android.md", "android-keys", ConfigReference.androidTable),
    ]
  }

  @Test("the docs' configuration tables are the generated ones")
  func docsMatchTheTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let update = ProcessInfo.processInfo.environment["THUMBFORGE_UPDATE_README"] == "1"
    for page in Set(Self.generatedTables.map(\.page)).sorted() {
      let url = root.appendingPathComponent(page)
      var text = try String(contentsOf: url, encoding: .utf8)
      var changed = false
      for (_, marker, table) in Self.generatedTables.filter({ $0.page == page }) {
        let begin =
          "<!-- \(marker): generated from the key table; run the tests with THUMBFORGE_UPDATE_README=1 -->\n"
        let end = "<!-- end of \(marker) -->"
        let start = try #require(text.range(of: begin), "\(page) lacks the \(marker) marker")
        let stop = try #require(
          text.range(of: end, range: start.upperBound..<text.endIndex),
          "\(page) lacks the end of \(marker) marker")
        if text[start.upperBound..<stop.lowerBound] != table() {
          if update {
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: table())
            changed = true
          } else {
            Issue.record(
              "\(page): the \(marker) table is stale: run the tests with THUMBFORGE_UPDATE_README=1"
            )
          }
        }
      }
      if changed {
        try text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("\(page) updated; run again")
      }
    }
    // The README links to the reference instead of holding a copy that could go stale.
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    for (_, marker, _) in Self.generatedTables {
      #expect(!readme.contains("<!-- \(marker):"), "README.md holds a copy of the \(marker) table")
    }
  }
}
