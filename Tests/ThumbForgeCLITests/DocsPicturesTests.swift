import Foundation
import Testing

/// The pictures of the README and `docs/` are contact sheets of real builds, made by
/// `Scripts/docs-pictures.sh` from `Scripts/pictures/NAME.yml`: each one is shown on a page,
/// each configuration has its picture, and each picture is what the script makes today, byte
/// for byte, so a change to a recipe's pixels or to the contact sheet cannot leave the
/// docs showing the old ones. Every local link of the pages leads to a file.
@Suite("Pictures and links of the docs", .timeLimit(.minutes(10)))
struct DocsPicturesTests {
  static let root = ExamplesTests.repository
  static let pictures = root.appendingPathComponent("docs/pictures")

  /// The pages users read, by their path in the repository.
  static func pages() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("docs").path
    ).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"] + docs
  }

  /// Each page's local link targets (`](target)` of links and images, without a `#fragment`),
  /// as paths in the repository.
  static func localLinks() throws -> [(page: String, target: String)] {
    var links: [(String, String)] = []
    for page in try pages() {
      let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
      let folder = (page as NSString).deletingLastPathComponent
      for match in text.matches(of: #/\]\(([^)\s]+)\)/#) {
        let target = String(match.1)
        guard !target.contains("://"), !target.hasPrefix("#"), !target.hasPrefix("mailto:")
        else { continue }
        let file = String(target.prefix { $0 != "#" })
        let path = ((folder as NSString).appendingPathComponent(file) as NSString)
          .standardizingPath
        links.append((page, path))
      }
    }
    return links
  }

  static func names(in folder: URL, ending suffix: String) throws -> Set<String> {
    Set(
      try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) })
  }

  @Test("every local link and image of the README and docs leads to a file")
  func linksResolve() throws {
    let links = try Self.localLinks()
    #expect(links.count > 20)
    let broken = links.filter {
      !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0.target).path)
    }.map { "\($0.page) → \($0.target)" }
    #expect(broken == [], "links to no file")
  }

  @Test("every page of docs/ is reached from the README by following links")
  func everyPageIsReachable() throws {
    let links = try Self.localLinks()
    var reached: Set<String> = ["README.md"]
    var next = ["README.md"]
    while let page = next.popLast() {
      for link in links where link.page == page && link.target.hasSuffix(".md") {
        if reached.insert(link.target).inserted { next.append(link.target) }
      }
    }
    let unreached = try Self.pages().filter { $0.hasPrefix("docs/") && !reached.contains($0) }
    #expect(unreached == [], "docs pages no chain of links from the README leads to")
  }

  @Test("each configuration of Scripts/pictures has its picture, and each picture is shown")
  func everyPictureIsShown() throws {
    let configurations = try Self.names(
      in: Self.root.appendingPathComponent("Scripts/pictures"), ending: ".yml")
    let made = try Self.names(in: Self.pictures, ending: ".png")
    #expect(!configurations.isEmpty)
    #expect(made == configurations, "docs/pictures/*.png against Scripts/pictures/*.yml")
    let shown = Set(
      try Self.localLinks().map(\.target).filter { $0.hasPrefix("docs/pictures/") }
        .map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
    #expect(made.subtracting(shown).sorted() == [], "pictures no page shows")
  }

  @Test("Scripts/docs-pictures.sh makes the pictures the docs show, byte for byte")
  func picturesAreCurrent() async throws {
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-pictures-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: out) }
    let script = Self.root.appendingPathComponent("Scripts/docs-pictures.sh").path
    let result = try await ExamplesTests.shell(
      "'\(script)' --bin '\(try CLI.binary().path)' --out '\(out.path)'", in: Self.root,
      environment: [:])
    #expect(result.status == 0, "\(result.output)")
    let fresh = try Self.names(in: out, ending: ".png")
    #expect(fresh == (try Self.names(in: Self.pictures, ending: ".png")))
    for name in fresh.sorted() {
      let made = try Data(contentsOf: out.appendingPathComponent(name + ".png"))
      let shown = try Data(contentsOf: Self.pictures.appendingPathComponent(name + ".png"))
      #expect(
        made == shown,
        "docs/pictures/\(name).png is not what Scripts/docs-pictures.sh makes now: run it")
    }
  }
}
