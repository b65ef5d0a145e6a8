import Foundation
import Testing

@testable import ThumbForge

/// The recipe key table is the single definition: it covers every field, accepts and refuses
/// keys by kind, and the README shows exactly what it says.
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

  @Test("the README's configuration tables are the generated ones")
  func readmeMatchesTheTable() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    var text = try String(contentsOf: readme, encoding: .utf8)
    var changed = false
    for (marker, table) in [
      ("settings", ConfigReference.settingsTable()), ("recipe-keys", ConfigReference.recipeTable()),
      ("serve-keys", ConfigReference.serveTable()),
    ] {
      let begin =
        "<!-- \(marker): generated from the key table; run the tests with THUMBFORGE_UPDATE_README=1 -->\n"
      let end = "<!-- end of \(marker) -->"
      let start = try #require(text.range(of: begin), "README lacks the \(marker) marker")
      let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
      let current = String(text[start.upperBound..<stop.lowerBound])
      if current != table {
        if ProcessInfo.processInfo.environment["THUMBFORGE_UPDATE_README"] == "1" {
          text.replaceSubrange(start.upperBound..<stop.lowerBound, with: table)
          changed = true
        } else {
          Issue.record(
            "README's \(marker) table is stale: run the tests with THUMBFORGE_UPDATE_README=1")
        }
      }
    }
    if changed {
      try text.write(to: readme, atomically: true, encoding: .utf8)
      Issue.record("README.md updated; run again")
    }
  }
}
