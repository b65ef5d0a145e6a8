import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig

/// ``Slot``: every spelling of a slot (file name, request name, `Contents.json` entry,
/// manifest strings) and its way back.
@Suite struct SlotTests {
  /// Every slot an imageset's file can fill: 1x–3x, any and dark, sRGB and Display P3.
  static let imageSetSlots: [Slot] = [1, 2, 3].flatMap { scale in
    [Slot.Appearance.any, .dark].flatMap { appearance in
      DisplayGamut.allCases.map { Slot(scale: scale, appearance: appearance, gamut: $0) }
    }
  }

  @Test func fileNames() {
    #expect(Slot(scale: 2).fileName(asset: "Italy", fileExtension: "png") == "Italy@2x.png")
    #expect(
      Slot(scale: 3, appearance: .dark).fileName(asset: "Italy", fileExtension: "jpg")
        == "Italy~dark@3x.jpg")
    #expect(
      Slot(scale: 1, gamut: .displayP3).fileName(asset: "Italy", fileExtension: "png")
        == "Italy~P3@1x.png")
    #expect(
      Slot(scale: 2, appearance: .dark, gamut: .displayP3)
        .fileName(asset: "United States", fileExtension: "png")
        == "United States~dark~P3@2x.png")
    #expect(
      Slot(scale: Slot.singleScale, appearance: .dark).fileName(asset: "Logo", fileExtension: "svg")
        == "Logo~dark.svg")
    #expect(Slot(scale: 1, appearance: .tinted).fileSuffix == "~tinted")
  }

  /// suffix → parse → the same slot, for every slot an imageset's file fills.
  @Test(arguments: imageSetSlots)
  func requestNameRoundTrip(slot: Slot) {
    let name = "Flags/Italy" + slot.fileSuffix
    let parsed = Slot.parse(requestName: name, scale: slot.scale)
    if slot.appearance == .any && slot.gamut == .sRGB {
      #expect(parsed == nil, "no suffix: the name is the asset's as it stands")
    } else {
      #expect(parsed?.asset == "Flags/Italy")
      #expect(parsed?.slot == slot)
    }
  }

  @Test func requestNamesThatAreNotSlots() {
    // Nothing (or only a group) before the suffix, or the suffixes in the wrong order.
    #expect(Slot.parse(requestName: "~dark", scale: 2) == nil)
    #expect(Slot.parse(requestName: "Flags/~P3", scale: 2) == nil)
    #expect(Slot.parse(requestName: "Italy~P3~dark", scale: 2)?.asset == "Italy~P3")
    // Tinted files are app icons', which are not served.
    #expect(Slot.parse(requestName: "AppIcon~tinted", scale: 1) == nil)
  }

  /// The manifest's strings and back.
  @Test(arguments: imageSetSlots + [Slot(scale: 1, appearance: .tinted)])
  func manifestRoundTrip(slot: Slot) {
    let back = Slot(
      scale: slot.scale, manifestAppearance: slot.manifestAppearance,
      manifestGamut: slot.manifestGamut)
    #expect(back == slot)
  }

  @Test func manifestStrings() {
    let plain = Slot(scale: 2)
    #expect(plain.manifestAppearance == nil && plain.manifestGamut == nil)
    let dark = Slot(scale: 2, appearance: .dark, gamut: .displayP3)
    #expect(dark.manifestAppearance == "dark" && dark.manifestGamut == "display-P3")
    #expect(Slot(scale: 1, appearance: .tinted).manifestAppearance == "tinted")
    // Strings ThumbForge never writes (nor `any`/`sRGB`, which it leaves out) are no slot.
    #expect(Slot(scale: 2, manifestAppearance: "light", manifestGamut: nil) == nil)
    #expect(Slot(scale: 2, manifestAppearance: "any", manifestGamut: nil) == nil)
    #expect(Slot(scale: 2, manifestAppearance: nil, manifestGamut: "sRGB") == nil)
  }

  /// Each slot's `Contents.json` entry, read back as JSON: the members Xcode gives it.
  @Test(arguments: imageSetSlots, [false, true])
  func contentsMembers(slot: Slot, listsGamut: Bool) throws {
    let listsGamut = listsGamut || slot.gamut == .displayP3
    let text = slot.imageSetEntry(filename: "\"a \\\"b\\\".png\"", listsGamut: listsGamut)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["idiom"] as? String == "universal")
    #expect(object["scale"] as? String == "\(slot.scale)x")
    #expect(object["filename"] as? String == "a \"b\".png")
    #expect(object["display-gamut"] as? String == (listsGamut ? slot.gamut.rawValue : nil))
    let appearances = object["appearances"] as? [[String: String]]
    if slot.appearance == .dark {
      #expect(appearances == [["appearance": "luminosity", "value": "dark"]])
    } else {
      #expect(appearances == nil)
    }
    let keys = Set(object.keys)
    #expect(keys.count == 3 + (listsGamut ? 1 : 0) + (slot.appearance == .dark ? 1 : 0))
  }

  /// The exact text, as Xcode writes it: keys sorted, two spaces a level, inside `images`.
  @Test func contentsEntryText() {
    #expect(
      Slot(scale: 3, appearance: .dark, gamut: .displayP3)
        .imageSetEntry(filename: "\"a.png\"", listsGamut: true) == """
              {
                "appearances" : [
                  {
                    "appearance" : "luminosity",
                    "value" : "dark"
                  }
                ],
                "display-gamut" : "display-P3",
                "filename" : "a.png",
                "idiom" : "universal",
                "scale" : "3x"
              }
          """)
    #expect(
      Slot(scale: Slot.singleScale).imageSetEntry(filename: nil, listsGamut: false) == """
            {
              "idiom" : "universal"
            }
        """)
  }

  /// A planned imageset's outputs fill the slots their names say, and its `Contents.json`
  /// lists each file in its own slot's entry.
  @Test func entryFilesBySlot() {
    var entry = ImageSetEntry(name: "Italy", files: [:])
    for slot in Self.imageSetSlots where slot.scale > 1 {
      entry.setFile(slot.fileName(asset: "Italy", fileExtension: "png"), for: slot)
    }
    entry.setFile("Italy~tinted@2x.png", for: Slot(scale: 2, appearance: .tinted))
    #expect(
      entry.file(for: Slot(scale: 2, appearance: .dark, gamut: .displayP3))
        == "Italy~dark~P3@2x.png")
    #expect(entry.file(for: Slot(scale: 1)) == nil)
    #expect(entry.file(for: Slot(scale: 2, appearance: .tinted)) == nil)
    let slots = CatalogContents.slots(of: entry)
    #expect(slots.count == 12 && slots.allSatisfy { $0.appearance != .tinted })
    let text = CatalogContents.imageSet(entry)
    for slot in slots where slot.scale > 1 {
      let expected = slot.imageSetEntry(
        filename: "\"\(slot.fileName(asset: "Italy", fileExtension: "png"))\"", listsGamut: true)
      #expect(text.contains(expected), "\(slot)")
    }
  }
}
