import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// Pins the encoding of ``PlannedOutput``: ``ImageSetKeyMaker`` hashes it into every
/// imageset's key (and `--dry-run --json` prints it), so a change of its shape would make
/// every catalog look stale. The outputs below cover every slot flag (dark, tinted, Display
/// P3, opaque, single scale) and both absent and present optionals.
@Suite struct PlannedOutputEncodingTests {
  /// Outputs as the JSON `--dry-run --json` prints, keys sorted.
  static let outputsJSON = """
    [{"cost":{"input":1000,"largestSide":40,"output":400,"working":400},"crop":null,"displayGamut":"sRGB","fileName":"Italy@2x.png","format":"png","isDark":false,"isOpaque":false,"isTinted":false,"master":"Flags/Italy.svg","mode":"render","path":"Flags/Italy.imageset/Italy@2x.png","pixelSize":{"height":20,"width":20},"resizeTo":{"height":20,"width":20},"scale":2,"upscale":null},\
    {"cost":{"input":9,"largestSide":3,"output":9,"working":9},"crop":{"height":30,"width":30,"x":1,"y":2},"displayGamut":"display-P3","fileName":"Italy~dark~P3@3x.jpeg","format":"jpeg","isDark":true,"isOpaque":false,"isTinted":false,"master":"Flags/Italy~dark.jpg","mode":"reencode","path":"Flags/Italy.imageset/Italy~dark~P3@3x.jpeg","pixelSize":{"height":30,"width":30},"resizeTo":{"height":32,"width":31},"scale":3,"upscale":1.5},\
    {"cost":{"input":0,"largestSide":0,"output":0,"working":0},"crop":null,"displayGamut":"sRGB","fileName":"Logo~dark.svg","format":"png","isDark":true,"isOpaque":false,"isTinted":false,"master":"Logo~dark.svg","mode":"copy","path":"Logo.imageset/Logo~dark.svg","pixelSize":{"height":5,"width":6},"resizeTo":{"height":5,"width":6},"scale":0,"upscale":null},\
    {"cost":{"input":4,"largestSide":2,"output":4,"working":4},"crop":null,"displayGamut":"sRGB","fileName":"AppIcon~tinted-1024.png","format":"png","isDark":false,"isOpaque":false,"isTinted":true,"master":"AppIcon~tinted.png","mode":"render","path":"AppIcon.appiconset/AppIcon~tinted-1024.png","pixelSize":{"height":1024,"width":1024},"resizeTo":{"height":1024,"width":1024},"scale":1,"upscale":null},\
    {"cost":{"input":4,"largestSide":2,"output":4,"working":4},"crop":null,"displayGamut":"sRGB","fileName":"AppIcon-1024.png","format":"png","isDark":false,"isOpaque":true,"isTinted":false,"master":"AppIcon.png","mode":"render","path":"AppIcon.appiconset/AppIcon-1024.png","pixelSize":{"height":1024,"width":1024},"resizeTo":{"height":1024,"width":1024},"scale":1,"upscale":null}]
    """

  static func outputs() throws -> [PlannedOutput] {
    let json = outputsJSON.replacingOccurrences(of: "\"crop\":null,", with: "")
      .replacingOccurrences(of: ",\"upscale\":null", with: "")
    return try JSONDecoder().decode([PlannedOutput].self, from: Data(json.utf8))
  }

  /// The key of one imageset made of the outputs above: computed by the code before
  /// ``Slot`` existed, so it pins the canonical encoding byte for byte.
  @Test func imageSetKeyIsPinned() throws {
    let set = PlannedImageSet(
      recipe: Recipe.builtin(.variants), name: "Italy", folder: "Flags/Italy.imageset",
      outputs: try Self.outputs(), skipped: ["@1x: no master"], warnings: [], focus: nil,
      contents: "{}\n", key: "")
    let keyed = ImageSetKeyMaker(header: "tool=pinned\nvips=8.14\nfail-on=warning\n").keyed([set])
    #expect(keyed[0].key == Self.pinnedKey)
  }

  static let pinnedKey = "4acb3e263ceadba836f32b62c1fdfd1928dce9a5b75afbaa52ccde63db6a80cc"

  /// The JSON encoding is the one decoded (same keys and values).
  @Test func jsonEncodingRoundTrips() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let outputs = try Self.outputs()
    let object = try JSONSerialization.jsonObject(with: encoder.encode(outputs)) as? NSArray
    let json = Self.outputsJSON.replacingOccurrences(of: "\"crop\":null,", with: "")
      .replacingOccurrences(of: ",\"upscale\":null", with: "")
    let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSArray
    #expect(object == expected)
    #expect(
      try JSONDecoder().decode([PlannedOutput].self, from: encoder.encode(outputs)) == outputs)
  }
}
