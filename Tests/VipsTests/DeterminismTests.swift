import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The same pixels must always encode to the same bytes, so output can be cached and
/// compared by hash.
@Suite struct DeterminismTests {
  static let cases: [(ImageFormat, SaveOptions)] = [
    (.png, SaveOptions()),
    (.png, SaveOptions(compression: 9, interlace: true)),
    (.jpeg, SaveOptions()),
    (.jpeg, SaveOptions(quality: 95, interlace: true)),
    (.webp, SaveOptions()),
    (.webp, SaveOptions(lossless: true)),
  ]

  @Test(arguments: cases)
  func encodingTwiceGivesIdenticalBytes(format: ImageFormat, options: SaveOptions) throws {
    let image = try Fixtures.gradient(width: 97, height: 61, layout: .rgba)
    let first = try image.encoded(as: format, options: options)
    let second = try image.encoded(as: format, options: options)
    #expect(!first.isEmpty)
    #expect(first == second)

    // Separately decoded copies of the same pixels encode identically too.
    let rebuilt = try Fixtures.gradient(width: 97, height: 61, layout: .rgba)
    #expect(try rebuilt.encoded(as: format, options: options) == first)
  }

  /// `save(path:)` runs libvips' file saver (`pngsave`, `jpegsave`, …) and `encoded(as:)` its
  /// buffer saver (`pngsave_buffer`, …): two entry points that must write the same bytes.
  ///
  /// The image is a lazy copy of a memory image (flipped twice). A memory image would send
  /// JPEG through ThumbForge's direct libjpeg-turbo encoder, which `save(path:)` and
  /// `encoded(as:)` share, so comparing the two would compare that encoder with itself
  /// (FastPathTests checks the direct encoder against libvips instead).
  @Test(arguments: ImageFormat.allCases.filter(Vips.canSave))
  func fileAndMemoryEncodersAgree(format: ImageFormat) throws {
    let memory = try Fixtures.gradient(
      width: 50, height: 40, layout: format.supportsAlpha ? .rgba : .rgb)
    let lazy = try memory.flipped(horizontal: true).flipped(horizontal: true)
    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("same.\(format.fileExtension)")
      try lazy.save(path: url.path, as: format)
      let fileBytes = try [UInt8](Data(contentsOf: url))
      let bufferBytes = try lazy.encoded(as: format)
      #expect(!fileBytes.isEmpty)
      #expect(
        fileBytes == bufferBytes,
        "\(fileBytes.count) bytes in the file, \(bufferBytes.count) in memory")
      #expect(
        try VipsImage.load(path: url.path).loader
          == VipsImageLoadSaveTests.expectedLoader(for: format))
      if format == .jpeg {
        // The direct encoder writes a JFIF header that libvips' stripped output lacks: if
        // these bytes were equal, the lazy copy would have taken the direct path after all.
        #expect(bufferBytes != (try memory.encoded(as: .jpeg)))
      }
    }
  }

  @Test func reloadedFileReEncodesIdentically() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(
        Fixtures.gradient(width: 80, height: 60), as: .jpeg, named: "source", in: directory)
      let first = try VipsImage.load(path: url.path).resize(width: 40, height: 30)
      let second = try VipsImage.load(path: url.path).resize(width: 40, height: 30)
      #expect(try first.encoded(as: .jpeg) == second.encoded(as: .jpeg))
      #expect(try first.encoded(as: .webp) == second.encoded(as: .webp))
    }
  }
}
