import CPNG
import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// PNGs encoded by libpng on the caller's thread (CPNG) against libvips' pngsave, the
/// reference they replace: the same bytes, for every layout, level and resolution; and the
/// in-thread computing that feeds them (``VipsImage/computedHere()``).
@Suite struct PNGDirectTests {
  /// libvips' own pngsave of `image`, with the arguments ThumbForge's saver passes.
  static func pngsave(_ image: VipsImage, compression: Int) throws -> [UInt8] {
    try VipsOperation.bytes(
      "pngsave_buffer",
      [
        "in": .image(image), "strip": .bool(true), "compression": .int(compression),
        "interlace": .bool(false),
      ])
  }

  /// `image` encoded by ``VipsImage/encoded(as:options:)``, and whether CPNG wrote it.
  static func encoded(_ image: VipsImage, _ options: SaveOptions) throws -> ([UInt8], Bool) {
    let before = cpng_encode_count()
    let bytes = try image.encoded(as: .png, options: options)
    return (bytes, cpng_encode_count() == before + 1)
  }

  @Test(arguments: PixelLayout.allCases, [0, 1, 6, 9])
  func directPNGsAreLibvipsBytes(layout: PixelLayout, compression: Int) throws {
    for (width, height) in [(1, 1), (7, 3), (80, 50), (257, 33)] {
      // A pipeline (computed here first) and the same pixels in memory.
      let lazy = try Fixtures.gradient(width: width, height: height, layout: layout)
        .flipped(horizontal: true)
      for image in [lazy, try lazy.copiedToMemory()] {
        let (bytes, direct) = try Self.encoded(image, SaveOptions(compression: compression))
        #expect(direct, "\(layout) \(width)x\(height): not encoded by CPNG")
        #expect(
          bytes == (try Self.pngsave(image, compression: compression)),
          "\(layout) \(width)x\(height), level \(compression)")
      }
    }
  }

  @Test func theResolutionIsWrittenAsLibvipsWritesIt() throws {
    for (xres, yres) in [(2.835, 11.811), (0.0004, 1_000_000), (0, 1), (7.5, 0.5)] {
      let image = try VipsOperation.image(
        "copy",
        [
          "in": .image(try Fixtures.gradient(width: 9, height: 4)), "xres": .double(xres),
          "yres": .double(yres),
        ])
      let (bytes, direct) = try Self.encoded(image, SaveOptions())
      #expect(direct)
      #expect(bytes == (try Self.pngsave(image, compression: 6)), "\(xres) x \(yres)")
    }
  }

  @Test func otherPNGsAreLeftToPngsave() throws {
    let profiled = try Fixtures.gradient(width: 12, height: 8).toRGB8(.displayP3)
    try #require(profiled.hasICCProfile)
    let cases: [(String, VipsImage, SaveOptions)] = [
      ("16-bit", try Fixtures.gradient(width: 12, height: 8, bitDepth: 16), SaveOptions()),
      ("interlaced", try Fixtures.gradient(width: 12, height: 8), SaveOptions(interlace: true)),
      (
        "metadata kept", try Fixtures.gradient(width: 12, height: 8),
        SaveOptions(stripMetadata: false)
      ),
      ("profile kept", profiled, SaveOptions(keepProfile: true)),
    ]
    for (name, image, options) in cases {
      let (bytes, direct) = try Self.encoded(image, options)
      #expect(!direct, "\(name)")
      #expect(try VipsImage.load(bytes: bytes).width == 12, "\(name)")
    }
  }

  @Test func computedHereGivesTheSinksPixels() throws {
    let lazy = try Fixtures.gradient(width: 301, height: 150, layout: .rgba)
      .embed(x: 3, y: 70, width: 310, height: 230, extend: .copy)
    let here = try lazy.computedHere()
    #expect(here.width == 310 && here.height == 230 && here.bands == 4)
    #expect(try here.pixelBytes() == (try lazy.copiedToMemory().pixelBytes()))
    // A memory image is its own result.
    #expect(try here.computedHere() === here)
  }

  @Test func computingHereStopsWhenTheRenderIsCancelled() throws {
    let lazy = try Fixtures.gradient(width: 64, height: 200).flipped(horizontal: true)
    let cancellation = RenderCancellation()
    cancellation.cancel()
    #expect(throws: VipsError.self) {
      try cancellation.run { () throws(VipsError) in _ = try lazy.computedHere() }
    }
  }
}
