import Foundation
import Testing

/// `Scripts/README.md` is the index of `Scripts/`: a table row for every file under it (the
/// path, in backquotes, opens the row's first cell), and no row for a file that is not there.
@Suite("Scripts index")
struct ScriptsIndexTests {
  static let scripts = ExamplesTests.repository.appendingPathComponent("Scripts")

  /// Every file under `Scripts/`, by its path there, but the index itself, hidden files and
  /// Python's `__pycache__` folders (git ignores both).
  static func files() throws -> Set<String> {
    let root = scripts.standardizedFileURL.path + "/"
    let walk = try #require(
      FileManager.default.enumerator(
        at: scripts, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
      ))
    var found: Set<String> = []
    for case let url as URL in walk {
      if url.lastPathComponent == "__pycache__" {
        walk.skipDescendants()
        continue
      }
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else {
        continue
      }
      found.insert(String(url.standardizedFileURL.path.dropFirst(root.count)))
    }
    found.remove("README.md")
    return found
  }

  /// The paths the index's table rows name: the first backquoted text of each row's first cell.
  static func indexed() throws -> [String] {
    let text = try String(
      contentsOf: scripts.appendingPathComponent("README.md"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("|") else { return nil }
      let cell = line.dropFirst().prefix { $0 != "|" }
      guard let match = cell.firstMatch(of: #/`([^`]+)`/#) else { return nil }
      return String(match.1)
    }
  }

  @Test("Scripts/README.md lists every file under Scripts/, once, and only those")
  func everyFileIsIndexed() throws {
    let files = try Self.files()
    let indexed = try Self.indexed()
    #expect(!files.isEmpty && !indexed.isEmpty)
    let unlisted = files.subtracting(indexed).sorted()
    #expect(unlisted == [], "files under Scripts/ that Scripts/README.md does not list")
    let missing = Set(indexed).subtracting(files).sorted()
    #expect(missing == [], "rows of Scripts/README.md naming no file under Scripts/")
    let twice = Dictionary(grouping: indexed, by: { $0 }).filter { $0.value.count > 1 }.keys
    #expect(twice.sorted() == [], "files listed twice in Scripts/README.md")
  }
}
