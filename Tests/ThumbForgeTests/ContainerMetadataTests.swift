import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// Metadata removed by rewriting a JPEG's or PNG's container: exactly the metadata segments
/// or chunks go, the image data and ICC profile stay, the pixels are the same; damaged and
/// generated hostile files never crash the walk and never grow.
@Suite("container metadata")
struct ContainerMetadataTests {
  static let renderer = Renderer(folder: URL(fileURLWithPath: "/"))

  static func photo(seed: Int = 4) throws -> VipsImage {
    try Fixtures.photo(width: 64, height: 40, seed: seed)
  }

  @Test("JPEG: EXIF, XMP, IPTC and comments go; the file libvips wrote comes back exactly")
  func jpeg() throws {
    for interlace in [false, true] {  // baseline, and progressive (several scans)
      let plain = try Self.photo().encoded(
        as: .jpeg, options: SaveOptions(quality: 90, interlace: interlace))
      let tagged = FileMetadata.jpeg(plain)
      #expect(try VipsImage.load(bytes: tagged).hasMetadata)
      #expect(JPEGMetadata.stripped(tagged) == plain, "interlace: \(interlace)")
      #expect(JPEGMetadata.stripped(plain) == nil, "nothing to remove")
      #expect(Self.renderer.withoutMetadata(tagged) == plain)
    }
  }

  @Test("JPEG: the ICC profile stays; a multi-picture index goes with the images after the end")
  func jpegProfileAndMultiPicture() throws {
    let withProfile = try Fixtures.displayP3(try Self.photo()).encoded(
      as: .jpeg, options: SaveOptions(quality: 90, stripMetadata: false, keepProfile: true))
    let tagged = FileMetadata.jpeg(withProfile)
    let stripped = try #require(Self.renderer.withoutMetadata(tagged))
    let image = try VipsImage.load(bytes: stripped)
    #expect(image.hasICCProfile && !image.hasMetadata)
    // A phone's second picture: an APP2 MPF index, and another JPEG after the end of image.
    let plain = try Self.photo().encoded(as: .jpeg)
    let index: [UInt8] = [0xFF, 0xE2, 0x00, 0x0A] + Array("MPF\0".utf8) + [0, 0, 0, 0]
    let second = try Self.photo(seed: 9).encoded(as: .jpeg)
    let multi = Array(plain[..<2]) + index + Array(plain[2...]) + second
    #expect(JPEGMetadata.stripped(multi) == plain)
    // Bytes another tool appended after the end (no index points at them) are kept.
    let appended = FileMetadata.jpeg(plain) + Array("trailer".utf8)
    #expect(JPEGMetadata.stripped(appended) == plain + Array("trailer".utf8))
  }

  @Test("PNG: text, XMP, EXIF and time chunks go; the file libvips wrote comes back exactly")
  func png() throws {
    for image in [try Self.photo(), try Fixtures.icon(width: 30, height: 20, seed: 2)] {
      let plain = try image.encoded(as: .png)
      let tagged = FileMetadata.png(plain)
      #expect(try VipsImage.load(bytes: tagged).hasMetadata)
      #expect(PNGMetadata.stripped(tagged) == plain)
      #expect(PNGMetadata.stripped(plain) == nil)
      #expect(Self.renderer.withoutMetadata(tagged) == plain)
    }
  }

  @Test("a file over limit-input-pixels is never decoded to be checked: shipped as it is")
  func overTheLimit() throws {
    let tagged = FileMetadata.png(try Self.photo().encoded(as: .png))
    var small = Self.renderer
    small.limits.inputPixels = 64 * 40 - 1
    #expect(small.withoutMetadata(tagged) == nil)
    small.limits.inputPixels = 64 * 40
    #expect(small.withoutMetadata(tagged) != nil)
  }

  @Test("a file whose EXIF orientation turns it is shipped as it is")
  func orientationKeepsTheFile() throws {
    let tagged = FileMetadata.jpeg(try Self.photo().encoded(as: .jpeg), orientation: 6)
    #expect(try VipsImage.load(bytes: tagged).orientation == 6)
    #expect(JPEGMetadata.stripped(tagged) != nil)
    #expect(Self.renderer.withoutMetadata(tagged) == nil)
  }

  @Test("generated hostile files: truncated, flipped and random bytes never crash or grow")
  func hostile() throws {
    let seeds = [
      FileMetadata.jpeg(try Self.photo().encoded(as: .jpeg)),
      FileMetadata.png(try Self.photo().encoded(as: .png)),
    ]
    var random = PropertyRandom(seed: 26)
    var stripped = 0
    for _ in 0..<2000 {
      var bytes = seeds[Int.random(in: 0...1, using: &random)]
      switch Int.random(in: 0...3, using: &random) {
      case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
      case 1:
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
      case 2:
        // A length field made huge or tiny, where a segment or chunk starts.
        let at = Int.random(in: 2..<min(bytes.count - 2, 200), using: &random)
        bytes[at] = [0x00, 0xFF][Int.random(in: 0...1, using: &random)]
        bytes[at + 1] = UInt8.random(in: 0...255, using: &random)
      default:
        let count = Int.random(in: 0...64, using: &random)
        bytes = bytes.prefix(8) + (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      }
      for result in [JPEGMetadata.stripped(bytes), PNGMetadata.stripped(bytes)] {
        guard let result else { continue }
        stripped += 1
        #expect(result.count < bytes.count)
      }
    }
    #expect(stripped > 100, "the generator reaches the walks' ends")
  }
}
