import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// ``MasterImage`` decides what depends on the codec: the loader (not the file's name) says
/// whether the file is shrunk on load, and only a JPEG used exactly as loaded is decoded by
/// libjpeg-turbo directly; the pixels are those of a plain load and resize either way.
@Suite struct MasterImageTests {
  /// A 2048×1024 progressive JPEG.
  static let photo = Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg")

  static let requests = [
    ResizeRequest(width: 240, height: 120),
    ResizeRequest(
      width: 200, height: 100, kernel: .cubic,
      region: VipsRect(x: 30, y: 0, width: 140, height: 100)),
  ]

  @Test func aJPEGIsShrunkOnLoadAndDecodedDirectly() throws {
    let master = try MasterImage(path: Self.photo.path, resizes: Self.requests)
    // 2048×1024 ÷ 4 = 512×256 still covers twice 240×120; ÷ 8 would not.
    #expect(master.shrink == 4)
    #expect(master.image.width == 512 && master.image.height == 256)
    #expect(master.decodesDirectly)
    let got = try master.resizedInOnePass(Self.requests, alsoHalve: true)
    // Exactly what libvips' own loader with the same shrink gives.
    let loaded = try VipsImage.load(
      path: Self.photo.path, options: LoadOptions(access: .sequential, shrink: 4))
    let expected = try loaded.resizedInOnePass(Self.requests, alsoHalve: true)
    for (ours, theirs) in zip(got.images, expected.images) {
      #expect(try ours.pixelBytes() == theirs.pixelBytes())
    }
    #expect(try got.half?.pixelBytes() == expected.half?.pixelBytes())
    // And close to resizing the whole, unshrunk photo.
    let whole = try VipsImage.load(path: Self.photo.path)
    for (request, image) in zip(Self.requests, got.images) {
      let reference = try whole.resize(
        width: request.width, height: request.height, kernel: request.kernel,
        region: request.region)
      let comparison = try ImageComparison(reference, image)
      #expect(comparison.isWithin(.lossy), "\(comparison)")
    }
  }

  @Test func theLoaderNotTheNameDecidesTheShrink() throws {
    try withTemporaryDirectory { directory in
      let misnamed = directory.appendingPathComponent("photo.png")
      try FileManager.default.copyItem(at: Self.photo, to: misnamed)
      let master = try MasterImage(path: misnamed.path, resizes: Self.requests)
      #expect(master.shrink == 4)
      #expect(master.decodesDirectly)

      let png = try Fixtures.write(
        try VipsImage.load(path: Self.photo.path), as: .png, named: "photo.jpg", in: directory)
      let fromPNG = try MasterImage(path: png.path, resizes: Self.requests)
      #expect(fromPNG.shrink == 1)
      #expect(fromPNG.image.width == 2048 && fromPNG.image.height == 1024)
      #expect(!fromPNG.decodesDirectly)
      let got = try fromPNG.resizedInOnePass(Self.requests, alsoHalve: false)
      let whole = try VipsImage.load(path: png.path)
      for (request, image) in zip(Self.requests, got.images) {
        let expected = try whole.resize(
          width: request.width, height: request.height, kernel: request.kernel,
          region: request.region)
        #expect(try image.pixelBytes() == expected.pixelBytes())
      }
    }
  }

  @Test func aLargeResizeKeepsTheFullSize() throws {
    let master = try MasterImage(
      path: Self.photo.path, resizes: Self.requests + [ResizeRequest(width: 1500, height: 750)])
    #expect(master.shrink == 1)
    #expect(master.image.width == 2048)
    #expect(master.decodesDirectly)
  }

  @Test func aRotatedJPEGIsShrunkByItsUprightSizeAndLeftToLibvips() throws {
    try withTemporaryDirectory { directory in
      let photo = try VipsImage.load(path: Self.photo.path)
      let file = try Fixtures.write(
        try photo.settingInt("orientation", 6), as: .jpeg, named: "turned.jpg", in: directory,
        options: SaveOptions(stripMetadata: false))
      // Upright it is 1024×2048: ÷ 2 covers twice 250×500 (the stored 2048×1024 ÷ 2 would
      // not).
      let request = ResizeRequest(width: 250, height: 500)
      let master = try MasterImage(path: file.path, resizes: [request])
      #expect(master.shrink == 2)
      #expect(master.image.width == 512 && master.image.height == 1024)
      #expect(master.image.orientation == 1)
      #expect(!master.decodesDirectly)
      let got = try master.resizedInOnePass([request], alsoHalve: false)
      let expected = try VipsImage.load(
        path: file.path, options: LoadOptions(shrink: 2)
      ).autoRotated().resize(width: 250, height: 500, region: nil)
      #expect(try got.images[0].pixelBytes() == expected.pixelBytes())
    }
  }

  @Test func aGreyJPEGIsConvertedSoLeftToLibvips() throws {
    try withTemporaryDirectory { directory in
      let grey = try Fixtures.write(
        try Fixtures.gradient(width: 333, height: 211).colourspace(.bw), as: .jpeg,
        named: "grey.jpg", in: directory)
      let master = try MasterImage(
        path: grey.path, resizes: [ResizeRequest(width: 50, height: 30)])
      #expect(master.shrink == 2)
      #expect(master.image.bands == 3 && master.image.interpretation == .srgb)
      #expect(!master.decodesDirectly)
    }
  }

  @Test(arguments: [FailOn.truncated, .error])
  func strictnessLibjpegCannotTellIsLeftToLibvips(failOn: FailOn) throws {
    let master = try MasterImage(path: Self.photo.path, resizes: Self.requests, failOn: failOn)
    #expect(master.shrink == 4)
    #expect(!master.decodesDirectly)
  }

  @Test func jpegShrinkPicksTheLargestFactorThatLeavesAReductionOfTwo() {
    let source = (width: 4000, height: 3000)
    #expect(MasterImage.jpegShrink(source: source, needed: (4000, 3000)) == 1)
    #expect(MasterImage.jpegShrink(source: source, needed: (1900, 1400)) == 1)
    #expect(MasterImage.jpegShrink(source: source, needed: (1000, 750)) == 2)
    #expect(MasterImage.jpegShrink(source: source, needed: (900, 600)) == 2)
    #expect(MasterImage.jpegShrink(source: source, needed: (500, 375)) == 4)
    #expect(MasterImage.jpegShrink(source: source, needed: (501, 300)) == 2)
    #expect(MasterImage.jpegShrink(source: source, needed: (80, 50)) == 8)
    // libjpeg rounds up: 999 ÷ 2 gives 500 rows, twice 250.
    #expect(MasterImage.jpegShrink(source: (999, 999), needed: (250, 250)) == 2)
  }
}
