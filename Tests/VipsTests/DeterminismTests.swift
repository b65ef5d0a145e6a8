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

  /// The bytes do not depend on how many threads libvips computes an image with: a lazy
  /// image large enough to be split into many tiles, encoded with libvips' worker pool at 1
  /// thread and at 4, from separately made copies of the same pixels.
  @Test(arguments: cases)
  func encodingDoesNotDependOnThreads(format: ImageFormat, options: SaveOptions) throws {
    func encode(threads: Int) throws -> [UInt8] {
      let saved = Vips.concurrency
      Vips.concurrency = threads
      defer { Vips.concurrency = saved }
      let image = try Fixtures.gradient(width: 1201, height: 907, layout: .rgba)
        .resize(width: 1000, height: 750)
      return try image.encoded(as: format, options: options)
    }
    let one = try encode(threads: 1)
    #expect(!one.isEmpty)
    #expect(try encode(threads: 4) == one)
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

  /// A file decoded by libvips' file loader and the same bytes by its buffer loader give
  /// the same resized, encoded output (`build` reads files, tests and fuzzers often bytes).
  @Test func fileAndBufferLoadersAgree() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(
        Fixtures.gradient(width: 80, height: 60), as: .jpeg, named: "source", in: directory)
      let fromFile = try VipsImage.load(path: url.path).resize(width: 40, height: 30)
      let bytes = try [UInt8](Data(contentsOf: url))
      let fromBytes = try VipsImage.load(bytes: bytes).resize(width: 40, height: 30)
      #expect(try fromFile.encoded(as: .jpeg) == fromBytes.encoded(as: .jpeg))
      #expect(try fromFile.encoded(as: .webp) == fromBytes.encoded(as: .webp))
    }
  }
}
