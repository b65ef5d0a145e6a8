import Foundation
import Testing
import ThumbForgeTestSupport

@testable import ThumbForge
@testable import ThumbForgePlanning

/// A catalog inside the asset folder is read as masters: names, groups, scales and
/// appearances from its folders and `Contents.json`, never from the file names.
@Suite("Existing catalogs")
struct ExistingCatalogTests {
  static let imageSetContents = """
    {
      "images" : [
        { "idiom" : "universal", "scale" : "1x" },
        { "filename" : "old-2.png", "idiom" : "universal", "scale" : "2x" },
        {
          "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
          "filename" : "old-dark.png", "idiom" : "universal", "scale" : "2x"
        },
        { "filename" : "old-ipad.png", "idiom" : "ipad", "scale" : "2x" },
        { "filename" : "gone.png", "idiom" : "universal", "scale" : "3x" }
      ],
      "info" : { "author" : "xcode", "version" : 1 }
    }
    """

  /// An asset folder with `Art/Legacy.xcassets` (a namespaced group `Icons` holding
  /// `Old.imageset`, and a colour set) and a loose master.
  func folder() throws -> URL {
    let root = try Fixtures.temporaryDirectory(prefix: "thumbforge-existing")
    func write(_ text: String, _ path: String) throws {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let catalog = "Art/Legacy.xcassets"
    try write(#"{ "info" : { "author" : "xcode", "version" : 1 } }"#, "\(catalog)/Contents.json")
    try write(
      #"{ "info" : { "author" : "xcode", "version" : 1 }, "properties" : { "provides-namespace" : true } }"#,
      "\(catalog)/Icons/Contents.json")
    try write(Self.imageSetContents, "\(catalog)/Icons/Old.imageset/Contents.json")
    for file in ["old-2.png", "old-dark.png", "old-ipad.png", "stray.png"] {
      try write("x", "\(catalog)/Icons/Old.imageset/\(file)")
    }
    try write("{}", "\(catalog)/AccentColor.colorset/Contents.json")
    try write("x", "Loose@2x.png")
    return root
  }

  @Test("a catalog's imagesets are read with their scales and appearances")
  func read() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let catalog = ExistingCatalog.read(
      root.appendingPathComponent("Art/Legacy.xcassets"), prefix: "Art/Legacy.xcassets")
    #expect(catalog.imageSets.map(\.qualifiedName) == ["Icons/Old"])
    #expect(
      catalog.imageSets[0].images == [
        .init(fileName: "old-2.png", scale: 2, isDark: false),
        .init(fileName: "old-dark.png", scale: 2, isDark: true),
      ])
    #expect(catalog.providesNamespace)
    #expect(catalog.otherAssets == ["Art/Legacy.xcassets/AccentColor.colorset"])
    let problems = catalog.problems.map(\.description)
    #expect(problems.count == 2, "\(problems)")
    #expect(
      problems.contains {
        $0.hasPrefix("Art/Legacy.xcassets/Icons/Old.imageset/old-ipad.png: idiom 'ipad'")
      })
    #expect(
      problems.contains {
        $0.hasPrefix("Art/Legacy.xcassets/Icons/Old.imageset/Contents.json: lists 'gone.png'")
      })
  }

  @Test("discovery takes a catalog's images as masters of their imageset, never nested")
  func candidates() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let scan = FolderScanner.scan(folder: root)
    let sorted = MasterCandidates(files: scan.files, folder: root, darkSuffix: "~dark")
    let masters = sorted.candidates.map {
      "\($0.file.relativePath) → \(($0.group + [$0.name.asset]).joined(separator: "/")) \($0.name.scale ?? 0)x\($0.name.isDark ? " dark" : "")"
    }
    #expect(
      masters == [
        "Loose@2x.png → Loose 2x",
        "Art/Legacy.xcassets/Icons/Old.imageset/old-2.png → Art/Icons/Old 2x",
        "Art/Legacy.xcassets/Icons/Old.imageset/old-dark.png → Art/Icons/Old 2x dark",
      ], "\(masters)")
    #expect(
      sorted.notes.map(\.path).contains("Art/Legacy.xcassets/Icons/Old.imageset/stray.png"))
    #expect(sorted.problems.count == 2)
  }
}
