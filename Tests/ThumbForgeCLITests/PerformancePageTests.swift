import Foundation
import Testing

/// docs/performance.md's tables are generated from the result files in `Scripts/bench/results/`
/// by `Scripts/bench/performance_page.py`; the page must be exactly what it writes, and its
/// hand-written prose must hold no run log (dates, commit hashes, issue or run numbers).
@Suite("Performance page generated from the result files")
struct PerformancePageTests {
  static let page = ExamplesTests.repository.appendingPathComponent("docs/performance.md")

  /// `performance_page.py --check` on `page`; its exit status and output.
  static func check(_ page: URL = page) async throws -> (status: Int32, output: String) {
    try await ExamplesTests.shell(
      "python3 Scripts/bench/performance_page.py --check --page '\(page.path)'",
      in: ExamplesTests.repository, environment: [:])
  }

  /// A copy of the page with `edit` applied, checked.
  static func checkEdited(_ edit: (String) throws -> String) async throws -> (
    status: Int32, output: String
  ) {
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("performance-\(UUID().uuidString.prefix(8)).md")
    defer { try? FileManager.default.removeItem(at: copy) }
    let text = try String(contentsOf: page, encoding: .utf8)
    let edited = try edit(text)
    #expect(edited != text)
    try edited.write(to: copy, atomically: true, encoding: .utf8)
    return try await check(copy)
  }

  @Test("the page is what the generator writes from the result files")
  func pageIsGenerated() async throws {
    let result = try await Self.check()
    #expect(result.status == 0, "\(result.output)")
  }

  @Test("a figure edited by hand in a generated table fails the check")
  func handEditedFigureFails() async throws {
    let result = try await Self.checkEdited { text in
      // The first data row of the first full-builds table: its first digit, changed.
      let start = try #require(text.range(of: "<!-- generated: full-builds/small -->\n"))
      let rows = text[start.upperBound...].split(separator: "\n", maxSplits: 3)
      let row = String(rows[2])
      let firstDigit = row.firstIndex { $0.isNumber }
      let digit = try #require(firstDigit)
      var edited = row
      edited.replaceSubrange(digit...digit, with: row[digit] == "1" ? "2" : "1")
      return text.replacingOccurrences(of: row, with: edited)
    }
    #expect(result.status == 1, "\(result.output)")
    #expect(result.output.contains("differ from the result files"), "\(result.output)")
  }

  @Test("a run log in the prose fails the check")
  func runLogInProseFails() async throws {
    let result = try await Self.checkEdited { text in
      text.replacingOccurrences(
        of: "## Full builds against other tools\n",
        with: "## Full builds against other tools\n\nMeasured in run 3 at 57c5c98.\n")
    }
    #expect(result.status == 1, "\(result.output)")
    #expect(result.output.contains("the page's prose, line"), "\(result.output)")
  }
}
