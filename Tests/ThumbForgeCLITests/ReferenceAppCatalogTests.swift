import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// A folder shaped like the reference app (flags with `@2x`/`@3x` PNG masters, photos with
/// only an `@2x` JPEG master): every `Contents.json` must be exactly what Xcode writes.
@Suite("Reference-app catalog", .timeLimit(.minutes(10)))
struct ReferenceAppCatalogTests {
  static let info = """
    {
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """

  static let namespaceGroup = """
    {
      "info" : {
        "author" : "xcode",
        "version" : 1
      },
      "properties" : {
        "provides-namespace" : true
      }
    }

    """

  /// Two filled slots (2x, 3x), 1x empty: a flag's variants and flag crops at scales [2, 3].
  static func twoAndThree(_ name: String, _ ext: String) -> String {
    """
    {
      "images" : [
        {
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "\(name)@2x.\(ext)",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "filename" : "\(name)@3x.\(ext)",
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """
  }

  /// Only the 2x slot filled: a photo with only an `@2x` master (3x would enlarge it).
  static func twoOnly(_ name: String) -> String {
    """
    {
      "images" : [
        {
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "\(name)@2x.jpg",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """
  }

  /// Every slot filled.
  static func allThree(_ name: String, _ ext: String) -> String {
    """
    {
      "images" : [
        {
          "filename" : "\(name)@1x.\(ext)",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "\(name)@2x.\(ext)",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "filename" : "\(name)@3x.\(ext)",
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """
  }

  static let flags = ["Austria", "Canada", "United States"]
  static let photos = ["alpe-dhuez", "whistler-blackcomb"]

  func makeReferenceAssets(_ box: Sandbox) throws {
    for (index, flag) in Self.flags.enumerated() {
      // The same artwork drawn at 2x and 3x (40x25 pt).
      let art = try Fixtures.photo(width: 120, height: 75, seed: index + 10)
      try box.image("Flags/\(flag)@3x.png", art)
      try box.image("Flags/\(flag)@2x.png", try art.resize(width: 80, height: 50))
    }
    for (index, photo) in Self.photos.enumerated() {
      try box.image(
        "Resorts/\(photo)@2x.jpg", Fixtures.photo(width: 600, height: 400, seed: index + 20))
    }
  }

  @Test("Default scales [2, 3]: every Contents.json is byte-for-byte Xcode's")
  func defaultScales() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "Resorts/*.jpg"
            recipes: [variants]

        """)
    try makeReferenceAssets(box)
    let result = try await box.build()
    expectExit(result, 0)

    var expected: [String: String] = [
      "Contents.json": Self.info, "Flags/Contents.json": Self.info,
      "Resorts/Contents.json": Self.info,
    ]
    for flag in Self.flags {
      expected["Flags/\(flag).imageset/Contents.json"] = Self.twoAndThree(flag, "png")
      expected["Flags/\(flag)-flag.imageset/Contents.json"] = Self.twoAndThree(flag, "png")
    }
    for photo in Self.photos {
      expected["Resorts/\(photo).imageset/Contents.json"] = Self.twoOnly(photo)
    }
    try expectContents(box, expected)

    // Per-scale masters are used as they are; flags are cropped to 40x25 pt.
    for flag in Self.flags {
      for scale in [2, 3] {
        let master = try Data(contentsOf: box.asset("Flags/\(flag)@\(scale)x.png"))
        let output = try Data(
          contentsOf: box.inCatalog("Flags/\(flag).imageset/\(flag)@\(scale)x.png"))
        #expect(output == master, "\(flag)@\(scale)x.png should be the master itself")
        let flagSize = try imageSize(
          box.inCatalog("Flags/\(flag)-flag.imageset/\(flag)@\(scale)x.png"))
        #expect(flagSize == (40 * scale, 25 * scale))
      }
    }
    for photo in Self.photos {
      #expect(
        try imageSize(box.inCatalog("Resorts/\(photo).imageset/\(photo)@2x.jpg")) == (600, 400))
      #expect(
        !FileManager.default.fileExists(
          atPath: box.inCatalog("Resorts/\(photo).imageset/\(photo)@3x.jpg").path))
    }
  }

  @Test("Scales [1, 2, 3], namespaces, a template preset and a dark appearance")
  func allScalesNamespacesAndDark() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        scales: [1, 2, 3]
        provides-namespace: true
        rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "Resorts/*.jpg"
            recipes: [variants, tile]
          - match: "Icons/**"
            recipes: [glyph]
        recipes:
          tile: { size: [100, 100] }
          glyph: { kind: variants, template-rendering-intent: template }

        """)
    try makeReferenceAssets(box)
    try box.image("Icons/Moon@2x.png", Fixtures.icon(width: 64, height: 64, seed: 1))
    try box.image("Icons/Moon~dark@2x.png", Fixtures.icon(width: 64, height: 64, seed: 2))
    let result = try await box.build()
    expectExit(result, 0)

    try expectContents(box, Self.allScalesContents)
    try Self.expectAllScalesSizes(box)
  }

  /// The `Contents.json` files of ``allScalesNamespacesAndDark()``'s catalog, by path.
  static var allScalesContents: [String: String] {
    var expected: [String: String] = [
      "Contents.json": Self.info, "Flags/Contents.json": Self.namespaceGroup,
      "Resorts/Contents.json": Self.namespaceGroup, "Icons/Contents.json": Self.namespaceGroup,
    ]
    for flag in Self.flags {
      expected["Flags/\(flag).imageset/Contents.json"] = Self.allThree(flag, "png")
      expected["Flags/\(flag)-flag.imageset/Contents.json"] = Self.allThree(flag, "png")
    }
    for photo in Self.photos {
      expected["Resorts/\(photo).imageset/Contents.json"] = Self.noThirdScale(photo)
      expected["Resorts/\(photo)-tile.imageset/Contents.json"] = Self.allThree(photo, "jpg")
    }
    expected["Icons/Moon-glyph.imageset/Contents.json"] = Self.moonGlyph
    return expected
  }

  /// A 2x JPEG photo's variants at scales 1–3: 1x and 2x, no 3x (never upscaled).
  static func noThirdScale(_ photo: String) -> String {
    """
    {
      "images" : [
        {
          "filename" : "\(photo)@1x.jpg",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "\(photo)@2x.jpg",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """
  }

  /// The template `glyph` preset of a 2x icon with a dark appearance, at scales 1–3.
  static let moonGlyph = """
    {
      "images" : [
        {
          "filename" : "Moon@1x.png",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "appearances" : [
            {
              "appearance" : "luminosity",
              "value" : "dark"
            }
          ],
          "filename" : "Moon~dark@1x.png",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "Moon@2x.png",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "appearances" : [
            {
              "appearance" : "luminosity",
              "value" : "dark"
            }
          ],
          "filename" : "Moon~dark@2x.png",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "idiom" : "universal",
          "scale" : "3x"
        },
        {
          "appearances" : [
            {
              "appearance" : "luminosity",
              "value" : "dark"
            }
          ],
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      },
      "properties" : {
        "template-rendering-intent" : "template"
      }
    }

    """

  /// The pixel sizes of ``allScalesNamespacesAndDark()``'s photos, tiles, a flag and a dark
  /// icon.
  static func expectAllScalesSizes(_ box: Sandbox) throws {
    for photo in Self.photos {
      #expect(
        try imageSize(box.inCatalog("Resorts/\(photo).imageset/\(photo)@1x.jpg")) == (300, 200))
      for scale in 1...3 {
        let size = try imageSize(
          box.inCatalog("Resorts/\(photo)-tile.imageset/\(photo)@\(scale)x.jpg"))
        #expect(size == (100 * scale, 100 * scale))
      }
    }
    #expect(try imageSize(box.inCatalog("Flags/Canada-flag.imageset/Canada@1x.png")) == (40, 25))
    #expect(try imageSize(box.inCatalog("Icons/Moon-glyph.imageset/Moon~dark@1x.png")) == (32, 32))
  }

  /// Every `Contents.json` in the catalog is listed in `expected`, with exactly that text.
  func expectContents(
    _ box: Sandbox, _ expected: [String: String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let found = FolderSnapshot(box.catalog).files.filter { $0.key.hasSuffix("Contents.json") }
    #expect(found.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
    for (path, text) in expected.sorted(by: { $0.key < $1.key }) {
      guard let entry = found[path] else { continue }
      let actual = String(decoding: entry.bytes, as: UTF8.self)
      #expect(actual == text, "\(path) differs from Xcode's text", sourceLocation: sourceLocation)
    }
  }
}
