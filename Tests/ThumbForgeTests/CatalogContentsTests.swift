import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeCatalog

@Suite("Catalog Contents.json")
struct CatalogContentsTests {
  @Test func root() {
    #expect(
      CatalogContents.root() == """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }

        """)
  }

  @Test func plainGroupHasOnlyInfo() {
    #expect(CatalogContents.group(providesNamespace: false) == CatalogContents.root())
  }

  @Test func namespaceGroup() {
    #expect(
      CatalogContents.group(providesNamespace: true) == """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "provides-namespace" : true
          }
        }

        """)
  }

  @Test func flagWith2xAnd3x() {
    let entry = ImageSetEntry(
      group: ["Flags"], name: "United States-flag",
      files: [2: "United States-flag@2x.png", 3: "United States-flag@3x.png"])
    #expect(entry.folderPath == "Flags/United States-flag.imageset")
    #expect(
      CatalogContents.imageSet(entry) == """
        {
          "images" : [
            {
              "idiom" : "universal",
              "scale" : "1x"
            },
            {
              "filename" : "United States-flag@2x.png",
              "idiom" : "universal",
              "scale" : "2x"
            },
            {
              "filename" : "United States-flag@3x.png",
              "idiom" : "universal",
              "scale" : "3x"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }

        """)
  }

  @Test func photoWithOnly2xAndCompression() {
    let entry = ImageSetEntry(
      name: "Zermatt", files: [2: "Zermatt@2x.jpg", 4: "ignored@4x.jpg"],
      compressionType: "lossy")
    #expect(entry.folderPath == "Zermatt.imageset")
    #expect(
      CatalogContents.imageSet(entry) == """
        {
          "images" : [
            {
              "idiom" : "universal",
              "scale" : "1x"
            },
            {
              "filename" : "Zermatt@2x.jpg",
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
          },
          "properties" : {
            "compression-type" : "lossy"
          }
        }

        """)
  }

  /// Xcode's Gamut "sRGB and Display P3" with the "Any, Dark" appearances: per scale, the
  /// sRGB slots (any, dark) and then the display-P3 ones, every slot with its `display-gamut`.
  @Test func displayP3SlotsFollowTheSRGBOnesOfEachScale() {
    let entry = ImageSetEntry(
      name: "Aspen", files: [2: "Aspen@2x.jpg", 3: "Aspen@3x.jpg"],
      darkFiles: [3: "Aspen~dark@3x.jpg"],
      displayP3Files: [2: "Aspen~P3@2x.jpg", 3: "Aspen~P3@3x.jpg"],
      displayP3DarkFiles: [3: "Aspen~dark~P3@3x.jpg"])
    #expect(
      CatalogContents.imageSet(entry) == Self.aspenWithDisplayP3)
  }

  /// `Aspen`: sRGB and Display P3 slots, any and dark, of scales 1–3 (2x and 3x files, a 3x dark).
  static let aspenWithDisplayP3 = """
    {
      "images" : [
        {
          "display-gamut" : "sRGB",
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
          "display-gamut" : "sRGB",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "display-gamut" : "display-P3",
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
          "display-gamut" : "display-P3",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "display-gamut" : "sRGB",
          "filename" : "Aspen@2x.jpg",
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
          "display-gamut" : "sRGB",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "display-gamut" : "display-P3",
          "filename" : "Aspen~P3@2x.jpg",
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
          "display-gamut" : "display-P3",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "display-gamut" : "sRGB",
          "filename" : "Aspen@3x.jpg",
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
          "display-gamut" : "sRGB",
          "filename" : "Aspen~dark@3x.jpg",
          "idiom" : "universal",
          "scale" : "3x"
        },
        {
          "display-gamut" : "display-P3",
          "filename" : "Aspen~P3@3x.jpg",
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
          "display-gamut" : "display-P3",
          "filename" : "Aspen~dark~P3@3x.jpg",
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

  @Test func darkVariantsFollowEachScale() {
    let entry = ImageSetEntry(
      name: "Logo", files: [1: "Logo.png", 2: "Logo@2x.png"],
      darkFiles: [2: "Logo-dark@2x.png"])
    #expect(
      CatalogContents.imageSet(entry) == Self.logoWithDark)
  }

  /// `Logo`: any and dark slots of scales 1–3 (1x and 2x files, a 2x dark).
  static let logoWithDark = """
    {
      "images" : [
        {
          "filename" : "Logo.png",
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
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "filename" : "Logo@2x.png",
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
          "filename" : "Logo-dark@2x.png",
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
      }
    }

    """

  @Test func templateIntentAndPreservedVector() {
    let entry = ImageSetEntry(
      group: ["Icons"], name: "Ski Lift", files: [3: "Ski Lift@3x.png"],
      templateRenderingIntent: "template", preservesVectorRepresentation: true,
      compressionType: "gpu-optimized-best")
    #expect(
      CatalogContents.imageSet(entry).hasSuffix(
        """
          "properties" : {
            "compression-type" : "gpu-optimized-best",
            "preserves-vector-representation" : true,
            "template-rendering-intent" : "template"
          }
        }

        """))
  }

  @Test func entryRoundTripsThroughCodable() throws {
    let entry = ImageSetEntry(
      group: ["A", "B"], name: "Zürich", files: [2: "Zürich@2x.png"],
      darkFiles: [2: "Zürich-dark@2x.png"], templateRenderingIntent: "original")
    let data = try JSONEncoder().encode(entry)
    #expect(try JSONDecoder().decode(ImageSetEntry.self, from: data) == entry)
  }
}

@Suite("Xcode JSON serializer")
struct XcodeJSONTests {
  @Test func escapesLikeJSONSerializationWithoutEscapingSlashes() {
    let value: XcodeJSON = ["k": "a/b \"q\" \\ é 🇦🇹 \n\t\u{01}"]
    #expect(value.serialized() == "{\n  \"k\" : \"a/b \\\"q\\\" \\\\ é 🇦🇹 \\n\\t\\u0001\"\n}\n")
  }

  @Test func sortsKeysAndNestsArrays() {
    let value: XcodeJSON = ["b": [1, false], "a": ["z": 1, "y": "x"]]
    #expect(
      value.serialized() == """
        {
          "a" : {
            "y" : "x",
            "z" : 1
          },
          "b" : [
            1,
            false
          ]
        }

        """)
  }

  /// Foundation's own writer (the one Xcode uses) is the oracle for everything we emit.
  @Test func matchesJSONSerialization() throws {
    let texts = [
      CatalogContents.root(), CatalogContents.group(providesNamespace: true),
      CatalogContents.imageSet(
        ImageSetEntry(
          group: ["Flags"], name: "Zürich", files: [1: "Zürich.png", 3: "Zürich/@3x.png"],
          darkFiles: [3: "Zürich \"dark\"@3x.png"], templateRenderingIntent: "original",
          preservesVectorRepresentation: true, compressionType: "lossless")),
    ]
    for text in texts {
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
      let expected = try JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      #expect(text == String(decoding: expected, as: UTF8.self) + "\n")
    }
  }

  /// The imageset writer builds its text directly; Foundation's writer checks it on many
  /// entries: every mix of scales, dark files, single-scale vectors, properties and awkward names.
  @Test func imageSetMatchesJSONSerializationOnVariedEntries() throws {
    var random = SeededRandom(seed: 13)
    let names = [
      "a", "Zürich", "quote\"d", "back\\slash", "tab\tname", "sl/ash", "😀 emoji", "ctl\u{1}",
    ]
    for _ in 0..<400 {
      func file() -> String { names.randomElement(using: &random)! + ".png" }
      var files: [Int: String] = [:]
      var darkFiles: [Int: String] = [:]
      var p3Files: [Int: String] = [:]
      var p3DarkFiles: [Int: String] = [:]
      if Int.random(in: 0..<5, using: &random) == 0 {
        files[ImageSetEntry.singleScale] = file()
        if Bool.random(using: &random) { darkFiles[ImageSetEntry.singleScale] = file() }
      } else {
        for scale in [1, 2, 3, 4] where Bool.random(using: &random) { files[scale] = file() }
        for scale in [1, 2, 3] where Int.random(in: 0..<3, using: &random) == 0 {
          darkFiles[scale] = file()
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
          for scale in [1, 2, 3] where Bool.random(using: &random) { p3Files[scale] = file() }
          for scale in [1, 2, 3] where Int.random(in: 0..<3, using: &random) == 0 {
            p3DarkFiles[scale] = file()
          }
        }
      }
      let entry = ImageSetEntry(
        name: "set", files: files, darkFiles: darkFiles, displayP3Files: p3Files,
        displayP3DarkFiles: p3DarkFiles,
        templateRenderingIntent: [nil, "original", "template"].randomElement(using: &random)!,
        preservesVectorRepresentation: Bool.random(using: &random),
        compressionType: [nil, "lossless", "gpu-optimized-best", names[2]].randomElement(
          using: &random)!)
      let text = CatalogContents.imageSet(entry)
      #expect(text == Self.imageSetTree(entry).serialized(), "\(entry)")
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
      let expected = try JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      #expect(text == String(decoding: expected, as: UTF8.self) + "\n", "\(entry)")
    }
  }

  /// The imageset's `Contents.json` as an ``XcodeJSON`` tree, built the plain way (the writer's
  /// first form): the reference the direct writer is compared with.
  static func imageSetTree(_ entry: ImageSetEntry) -> XcodeJSON {
    func slot(_ filename: String?, scale: Int?, dark: Bool, gamut: String? = nil) -> XcodeJSON {
      var members: XcodeJSON.Object = ["idiom": "universal"]
      if let gamut { members["display-gamut"] = .string(gamut) }
      if let scale { members["scale"] = .string("\(scale)x") }
      if let filename { members["filename"] = .string(filename) }
      if dark { members["appearances"] = CatalogContents.darkAppearances }
      return .object(members)
    }
    var images: [XcodeJSON] = []
    if let single = entry.files[ImageSetEntry.singleScale] {
      images.append(slot(single, scale: nil, dark: false))
      if let dark = entry.darkFiles[ImageSetEntry.singleScale] {
        images.append(slot(dark, scale: nil, dark: true))
      }
    } else {
      let wide = !entry.displayP3Files.isEmpty || !entry.displayP3DarkFiles.isEmpty
      let hasDark = !entry.darkFiles.isEmpty || !entry.displayP3DarkFiles.isEmpty
      for scale in CatalogContents.scales {
        images.append(
          slot(entry.files[scale], scale: scale, dark: false, gamut: wide ? "sRGB" : nil))
        if hasDark {
          images.append(
            slot(entry.darkFiles[scale], scale: scale, dark: true, gamut: wide ? "sRGB" : nil))
        }
        if wide {
          images.append(
            slot(entry.displayP3Files[scale], scale: scale, dark: false, gamut: "display-P3"))
          if hasDark {
            images.append(
              slot(entry.displayP3DarkFiles[scale], scale: scale, dark: true, gamut: "display-P3"))
          }
        }
      }
    }
    var members: XcodeJSON.Object = ["images": .array(images), "info": CatalogContents.info]
    var properties: XcodeJSON.Object = [:]
    if let type = entry.compressionType { properties["compression-type"] = .string(type) }
    if entry.preservesVectorRepresentation { properties["preserves-vector-representation"] = true }
    if let intent = entry.templateRenderingIntent {
      properties["template-rendering-intent"] = .string(intent)
    }
    if properties != [:] { members["properties"] = .object(properties) }
    return .object(members)
  }

  @Test func emptyContainersHaveABlankLine() {
    let value: XcodeJSON = ["images": [], "properties": .object([:])]
    #expect(value.serialized() == "{\n  \"images\" : [\n\n  ],\n  \"properties\" : {\n\n  }\n}\n")
  }
}

/// A small deterministic generator (SplitMix64), so a failing case can be replayed.
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
