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

  @Test(arguments: [ImageFormat.png, .jpeg, .webp])
  func fileAndMemoryEncodersAgree(format: ImageFormat) throws {
    let image = try Fixtures.gradient(width: 50, height: 40)
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(image, as: format, named: "same", in: directory)
      let fileBytes = try [UInt8](Data(contentsOf: url))
      #expect(fileBytes == (try image.encoded(as: format)))
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
