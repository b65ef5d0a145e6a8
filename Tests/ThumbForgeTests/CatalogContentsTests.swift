import Foundation
import Testing

@testable import ThumbForge

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

  @Test func darkVariantsFollowEachScale() {
    let entry = ImageSetEntry(
      name: "Logo", files: [1: "Logo.png", 2: "Logo@2x.png"],
      darkFiles: [2: "Logo-dark@2x.png"])
    #expect(
      CatalogContents.imageSet(entry) == """
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

        """)
  }

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

  @Test func emptyContainersHaveABlankLine() {
    let value: XcodeJSON = ["images": [], "properties": .object([:])]
    #expect(value.serialized() == "{\n  \"images\" : [\n\n  ],\n  \"properties\" : {\n\n  }\n}\n")
  }
}
