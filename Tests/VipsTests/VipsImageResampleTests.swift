import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// ThumbForge's own 8-bit resampler behind `resize(width:height:kernel:region:)`, checked
/// against libvips' `resize` with the same kernel on a real photo and on synthetic images.
@Suite struct VipsImageResampleTests {
  /// A real photo from the sample asset folder, decoded to memory once.
  static let photo: VipsImage = {
    let url = Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg")
    // swift-format-ignore: NeverUseForceTry
    return try! VipsImage.load(path: url.path).copiedToMemory()
  }()

  static let fastKernels: [Kernel] = [.linear, .cubic, .mitchell, .lanczos2, .lanczos3]

  @Test(arguments: fastKernels)
  func matchesLibvipsOnAPhoto(kernel: Kernel) throws {
    let photo = Self.photo
    for (width, height) in [(1024, 512), (1200, 600), (700, 333), (97, 61)] {
      let ours = try photo.resize(width: width, height: height, kernel: kernel, region: nil)
      let libvips = try photo.resize(width: width, height: height, kernel: kernel)
      #expect(ours.width == width && ours.height == height)
      let comparison = try ImageComparison(libvips, ours)
      // The same filter, so the same picture; libvips' rounding and pixel-centre handling
      // differ slightly, well within the bounds below.
      #expect(comparison.meanDifference < 1.0, "\(kernel) \(width)x\(height): \(comparison)")
      #expect(comparison.maxDifference <= 48, "\(kernel) \(width)x\(height): \(comparison)")
    }
  }

  @Test func upscalingLooksLikeLibvips() throws {
    // libvips enlarges with an interpolator rather than the stretched kernel, so only the
    // picture is compared, with a wider mean bound.
    let source = try Fixtures.gradient(width: 40, height: 30)
    let ours = try source.resize(width: 131, height: 77, kernel: .lanczos3, region: nil)
    let libvips = try source.resize(width: 131, height: 77, kernel: .lanczos3)
    let comparison = try ImageComparison(libvips, ours)
    #expect(comparison.meanDifference < 2.5, "\(comparison)")
    #expect(comparison.maxDifference <= 12, "\(comparison)")
  }

  @Test func aHalvingLinearFilterGivesTheTextbookWeights() throws {
    // Output pixel i is centred between inputs 2i and 2i+1; the triangle stretched to two
    // pixels weighs inputs 2i-1 ... 2i+2 by 1/8, 3/8, 3/8, 1/8; past the edge the edge
    // pixel repeats. For the ramp 0, 10, ..., 150 that gives 20i + 5 inside.
    let ramp = try Fixtures.image(width: 16, height: 1, layout: .grey) { x, _, _ in x * 10 }
    let half = try ramp.resize(width: 8, height: 1, kernel: .linear, region: nil)
    #expect(try half.pixelBytes() == [6, 25, 45, 65, 85, 105, 125, 144])
  }

  @Test func aRegionIsExactlyThatPartOfTheWholeResult() throws {
    let photo = Self.photo
    let whole = try photo.resize(width: 1600, height: 800, kernel: .lanczos3, region: nil)
    let region = VipsRect(x: 200, y: 13, width: 1200, height: 700)
    let part = try photo.resize(width: 1600, height: 800, kernel: .lanczos3, region: region)
    #expect(part.width == 1200 && part.height == 700)
    let expected = try whole.crop(x: 200, y: 13, width: 1200, height: 700)
    #expect(try part.pixelBytes() == expected.pixelBytes())
  }

  @Test(arguments: fastKernels)
  func aFlatImageStaysExactlyFlat(kernel: Kernel) throws {
    let colour = [200, 17, 99]
    let flat = try Fixtures.image(width: 301, height: 97, layout: .rgb) { _, _, band in
      colour[band]
    }
    for (width, height) in [(100, 50), (77, 23), (500, 300), (1, 1)] {
      let resized = try flat.resize(width: width, height: height, kernel: kernel, region: nil)
      let bytes = try resized.pixelBytes()
      #expect(bytes.count == width * height * 3)
      let wrong = stride(from: 0, to: bytes.count, by: 3).first {
        bytes[$0] != 200 || bytes[$0 + 1] != 17 || bytes[$0 + 2] != 99
      }
      #expect(wrong == nil, "\(kernel) \(width)x\(height) at sample \(wrong ?? -1)")
    }
  }

  @Test func greyImagesStayOneBand() throws {
    let grey = try Self.photo.colourspace(.bw)
    let ours = try grey.resize(width: 512, height: 256, kernel: .lanczos3, region: nil)
    #expect(ours.bands == 1)
    let comparison = try ImageComparison(
      grey.resize(width: 512, height: 256, kernel: .lanczos3), ours)
    #expect(comparison.meanDifference < 1.0, "\(comparison)")
  }

  @Test func theSameInputGivesTheSameBytes() throws {
    let first = try Self.photo.resize(width: 811, height: 405, kernel: .lanczos3, region: nil)
    let second = try Self.photo.resize(width: 811, height: 405, kernel: .lanczos3, region: nil)
    #expect(try first.pixelBytes() == second.pixelBytes())
  }

  @Test func imagesWithAlphaAndNearestUseLibvipsAndStillGiveTheRightSize() throws {
    let rgba = try Fixtures.image(width: 50, height: 40, layout: .rgba) { x, y, band in
      band == 3 ? 128 : (x * 5 + y * 3 + band * 40) % 256
    }
    let resized = try rgba.resize(
      width: 20, height: 16, kernel: .lanczos3, region: VipsRect(x: 2, y: 3, width: 10, height: 9))
    #expect(resized.width == 10 && resized.height == 9 && resized.bands == 4)
    let nearest = try Self.photo.resize(
      width: 100, height: 50, kernel: .nearest, region: VipsRect(x: 0, y: 0, width: 40, height: 50))
    #expect(nearest.width == 40 && nearest.height == 50)
  }

  @Test func aRegionOutsideTheResultIsAnError() throws {
    #expect(throws: VipsError.self) {
      try Self.photo.resize(
        width: 100, height: 50, kernel: .lanczos3,
        region: VipsRect(x: 90, y: 0, width: 20, height: 50))
    }
  }

  @Test func onePassGivesTheSameBytesAsResizingOneByOne() throws {
    let url = Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg")
    let streamed = try VipsImage.load(path: url.path, options: LoadOptions(access: .sequential))
    let requests = [
      ResizeRequest(width: 1024, height: 512),
      ResizeRequest(
        width: 1600, height: 800, kernel: .cubic,
        region: VipsRect(x: 200, y: 0, width: 1200, height: 800)),
      ResizeRequest(width: 77, height: 41, kernel: .linear),
      ResizeRequest(width: streamed.width, height: streamed.height),  // a plain copy
    ]
    let pass = try streamed.resizedInOnePass(requests, alsoHalve: true)
    #expect(pass.images.count == requests.count)
    for (request, image) in zip(requests, pass.images) {
      let expected = try Self.photo.resize(
        width: request.width, height: request.height, kernel: request.kernel,
        region: request.region)
      #expect(try image.pixelBytes() == expected.pixelBytes(), "\(request)")
    }
    let half = try #require(pass.half)
    #expect(try half.pixelBytes() == Self.photo.halved().pixelBytes())
    #expect(try pass.images[3].pixelBytes() == Self.photo.pixelBytes())
  }

  @Test func onePassOverAnImageWithAlphaFallsBackToTheSameResults() throws {
    let rgba = try Fixtures.image(width: 64, height: 48, layout: .rgba) { x, y, band in
      band == 3 ? (x * 4) % 256 : (x * 5 + y * 3 + band * 40) % 256
    }
    let request = ResizeRequest(width: 30, height: 20)
    let pass = try rgba.resizedInOnePass([request], alsoHalve: true)
    #expect(try pass.images[0].pixelBytes() == rgba.resize(width: 30, height: 20).pixelBytes())
    #expect(try pass.half?.pixelBytes() == rgba.shrink(by: 2).pixelBytes())
  }

  @Test func halvingAveragesEachTwoByTwoBlockAndDropsAnOddEdge() throws {
    let grid = try Fixtures.image(width: 5, height: 3, layout: .grey) { x, y, _ in x * 10 + y * 100
    }
    // Rows 0-1, columns (0,1) and (2,3): (0+10+100+110)/4 = 55, (20+30+120+130)/4 = 75.
    #expect(try grid.halved().pixelBytes() == [55, 75])
  }

  @Test func aTruncatedFileFailsTheOnePass() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-resample")
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/snowbird@2x.jpg")
    let copy = directory.appendingPathComponent("snowbird.jpg")
    try FileManager.default.copyItem(at: source, to: copy)
    let truncated = try Fixtures.truncatedCopy(of: copy, keeping: 0.4)
    let image = try VipsImage.load(path: truncated.path, options: LoadOptions(access: .sequential))
    // (The message is libvips' process-wide error text, which BadInputTests checks one test
    // at a time; here only the failure itself is asserted.)
    #expect(throws: VipsError.self) {
      try image.resizedInOnePass([ResizeRequest(width: 300, height: 150)], alsoHalve: false)
    }
  }
}
