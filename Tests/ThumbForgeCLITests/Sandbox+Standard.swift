import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The small asset folder most suites build: two SVG flags (variants + flag), a JPEG and a PNG
/// photo (masters at 3x), and an RGBA icon at the folder's root.
extension Sandbox {
  /// Every image file the standard folder produces, with its pixel size.
  static let standardOutputs: [String: (Int, Int)] = [
    "Flags/Red.imageset/Red@2x.png": (120, 80),
    "Flags/Red.imageset/Red@3x.png": (180, 120),
    "Flags/Red-flag.imageset/Red@2x.png": (80, 50),
    "Flags/Red-flag.imageset/Red@3x.png": (120, 75),
    "Flags/Blue.imageset/Blue@2x.png": (120, 80),
    "Flags/Blue.imageset/Blue@3x.png": (180, 120),
    "Flags/Blue-flag.imageset/Blue@2x.png": (80, 50),
    "Flags/Blue-flag.imageset/Blue@3x.png": (120, 75),
    "Photos/Lake.imageset/Lake@2x.jpg": (200, 100),
    "Photos/Lake.imageset/Lake@3x.jpg": (300, 150),
    "Photos/Tree.imageset/Tree@2x.png": (200, 100),
    "Photos/Tree.imageset/Tree@3x.png": (300, 150),
    "Icon.imageset/Icon@2x.png": (60, 60),
    "Icon.imageset/Icon@3x.png": (90, 90),
  ]

  static let standardImageSets = [
    "Flags/Blue-flag.imageset", "Flags/Blue.imageset", "Flags/Red-flag.imageset",
    "Flags/Red.imageset", "Icon.imageset", "Photos/Lake.imageset", "Photos/Tree.imageset",
  ]

  /// Every file ThumbForge writes into the catalog for the standard folder.
  static var standardCatalogFiles: [String] {
    (Array(standardOutputs.keys) + standardImageSets.map { $0 + "/Contents.json" }
      + ["Contents.json", "Flags/Contents.json", "Photos/Contents.json"]).sorted()
  }

  func makeStandardAssets() throws {
    try svg("Flags/Red.svg", width: 60, height: 40, colors: ["#c8102e", "#ffffff", "#c8102e"])
    try svg("Flags/Blue.svg", width: 60, height: 40, colors: ["#002395", "#ffffff", "#ed2939"])
    try image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 1))
    try image("Photos/Tree.png", Fixtures.photo(width: 300, height: 150, seed: 2))
    try image("Icon.png", Fixtures.icon(width: 90, height: 90, seed: 3))
  }

  /// Things a person made in the catalog by hand, which ThumbForge must never touch.
  static let handMade: [String: String] = [
    "AccentColor.colorset/Contents.json": """
    {
      "colors" : [
        {
          "color" : {
            "color-space" : "srgb",
            "components" : {
              "alpha" : "1.000",
              "blue" : "0.200",
              "green" : "0.400",
              "red" : "0.800"
            }
          },
          "idiom" : "universal"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """,
    "Other.imageset/Contents.json": """
    {
      "images" : [
        {
          "filename" : "other.png",
          "idiom" : "universal"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """,
    "Other.imageset/other.png": "not really a PNG, but ThumbForge must not care\n",
  ]

  func addHandMadeItems() throws {
    for (path, text) in Self.handMade { try write(Data(text.utf8), to: path, in: catalog) }
  }

  /// The hand-made files as they are now (bytes, mtime, inode).
  func handMadeSnapshot() -> [String: FolderSnapshot.Entry] {
    FolderSnapshot(catalog).files.filter { Self.handMade[$0.key] != nil }
  }

  /// Manifest image sets by folder.
  func manifestImageSets() throws -> [String: [String: Any]] {
    let sets = try #require(try readManifest()["imageSets"] as? [[String: Any]])
    var byFolder: [String: [String: Any]] = [:]
    for set in sets {
      let folder = try #require(set["folder"] as? String)
      byFolder[folder] = set
    }
    return byFolder
  }
}

/// The manifest entries as comparable JSON text (sorted keys), by folder.
func canonicalEntries(_ sets: [String: [String: Any]]) throws -> [String: String] {
  try sets.mapValues { set in
    String(
      decoding: try JSONSerialization.data(withJSONObject: set, options: [.sortedKeys]),
      as: UTF8.self)
  }
}

/// Fails with the command's output when it did not exit with `code`.
func expectExit(
  _ result: CLIResult, _ code: Int32, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    result.status == code && !result.signalled, "expected exit \(code)\n\(result)",
    sourceLocation: sourceLocation)
}
