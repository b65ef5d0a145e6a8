import CVips
import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// JPEG and PNG files go straight to the loader libvips itself picks for them; every other
/// file is left to libvips' own search.
@Suite struct CommonLoaderTests {
  /// The class libvips names `nickname` (vips_foreign_find_load answers with class names).
  static func className(_ nickname: String) -> String? {
    let type = vips_type_find("VipsOperation", nickname)
    return type == 0 ? nil : g_type_name(type).map { String(cString: $0) }
  }

  @Test func jpegAndPNGGetTheLoaderLibvipsPicks() throws {
    try Vips.initialize()
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-loader")
    let image = try Fixtures.gradient(width: 21, height: 13, layout: .rgba)
    let formats: [(ImageFormat, String?)] = [
      (.jpeg, "jpegload"), (.png, "pngload"), (.webp, nil), (.heif, nil),
    ]
    for (format, expected) in formats where Vips.canSave(format) {
      let file = try Fixtures.write(
        format == .jpeg ? try image.flattened(background: [0, 0, 0]) : image, as: format,
        named: "image.\(format.rawValue)", in: directory)
      let chosen = CommonLoader.name(forFile: file.path)
      #expect(chosen == expected, "\(format)")
      let libvips = vips_foreign_find_load(file.path).map { String(cString: $0) }
      if let chosen {
        #expect(Self.className(chosen) == libvips, "\(format): libvips picks \(libvips ?? "none")")
      }
      let bytes = Array(try Data(contentsOf: file))
      let fromBuffer = CommonLoader.name(forPrefix: bytes.prefix(8), buffer: true)
      let libvipsBuffer = bytes.withUnsafeBytes {
        vips_foreign_find_load_buffer($0.baseAddress, $0.count).map { String(cString: $0) }
      }
      if let fromBuffer {
        #expect(Self.className(fromBuffer) == libvipsBuffer, "\(format) in memory")
      }
      #expect((fromBuffer == nil) == (expected == nil))
      #expect(try VipsImage.load(path: file.path).width == 21)
      #expect(try VipsImage.load(bytes: bytes).width == 21)
    }
  }

  @Test func shortMissingAndOtherFilesAreLeftToLibvips() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-loader")
    let short = directory.appendingPathComponent("short.jpg")
    try Data([0xFF, 0xD8]).write(to: short)
    #expect(CommonLoader.name(forFile: short.path) == nil)
    #expect(CommonLoader.name(forFile: directory.appendingPathComponent("none.png").path) == nil)
    #expect(CommonLoader.name(forPrefix: Array("<svg".utf8), buffer: true) == nil)
    #expect(throws: VipsError.self) { try VipsImage.load(path: short.path) }
  }
}
