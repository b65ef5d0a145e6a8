import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct VipsImageGeometryTests {
  @Test func resizeGivesExactSizesOverARangeOfTargets() throws {
    let source = try Fixtures.gradient(width: 200, height: 150)
    var wrong: [String] = []
    for width in stride(from: 1, through: 200, by: 7) {
      for height in [1, 2, 37, 150, 299] {
        let resized = try source.resize(width: width, height: height)
        if resized.width != width || resized.height != height {
          wrong.append("\(width)×\(height) → \(resized.width)×\(resized.height)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }

  @Test(arguments: Kernel.allCases)
  func everyKernelResizesAndKeepsTheLook(kernel: Kernel) throws {
    let source = try Fixtures.gradient(width: 120, height: 80)
    let small = try source.resize(width: 61, height: 43, kernel: kernel)
    #expect(small.width == 61 && small.height == 43)
    // Pixels are really computed, and the picture is still the same picture.
    let back = try small.resize(width: 120, height: 80, kernel: kernel)
    // Every pixel close, not only the picture on average: a shifted or smeared resize fails.
    let comparison = try ImageComparison(source, back)
    let close = ImageTolerance(meanDifference: 4, maxDifference: 32, hashDistance: 4)
    #expect(comparison.isWithin(close), "\(comparison)")
  }

  @Test func resizeToTheSameSizeReturnsTheImage() throws {
    let source = try Fixtures.gradient(width: 20, height: 10)
    #expect(try source.resize(width: 20, height: 10) === source)
  }

  @Test func resizeByScaleRoundsToTheNearestPixel() throws {
    let source = try Fixtures.gradient(width: 200, height: 150)
    let half = try source.resize(scale: 0.5)
    #expect(half.width == 100 && half.height == 75)
    let third = try source.resize(scale: 0.33)
    #expect(third.width == 66 && third.height == 50)
    let stretched = try source.resize(scale: 1.5, verticalScale: 0.5)
    #expect(stretched.width == 300 && stretched.height == 75)
  }

  @Test func cropCutsTheRequestedRectangle() throws {
    let source = try Fixtures.gradient(width: 60, height: 40)
    let cropped = try source.crop(x: 10, y: 5, width: 30, height: 20)
    #expect(cropped.width == 30 && cropped.height == 20)
    #expect(try cropped.pixel(x: 0, y: 0) == source.pixel(x: 10, y: 5))
    #expect(try cropped.pixel(x: 29, y: 19) == source.pixel(x: 39, y: 24))
    #expect(try source.crop(x: 0, y: 0, width: 60, height: 40) === source)
  }

  @Test(arguments: Interesting.allCases.filter { $0 != .all })
  func smartCropGivesTheRequestedSize(interesting: Interesting) throws {
    let source = try Fixtures.gradient(width: 120, height: 80)
    let cropped = try source.smartCrop(width: 50, height: 70, interesting: interesting)
    #expect(cropped.width == 50 && cropped.height == 70)
    #expect(try cropped.average() > 0)
  }

  @Test func smartCropWithAllKeepsTheWholeImage() throws {
    // libvips' "all" means everything is interesting, so nothing is cut away.
    let source = try Fixtures.gradient(width: 120, height: 80)
    let cropped = try source.smartCrop(width: 50, height: 70, interesting: .all)
    #expect(cropped.width == 120 && cropped.height == 80)
  }

  @Test func smartCropFindsTheBrightCorner() throws {
    // A dark image with one bright 20×20 square in the bottom-right corner.
    let source = try Fixtures.image(width: 100, height: 100, layout: .rgb) { x, y, _ in
      x >= 80 && y >= 80 ? 250 : 10
    }
    let cropped = try source.smartCrop(width: 30, height: 30, interesting: .high)
    #expect(try cropped.pixel(x: 29, y: 29) == [250, 250, 250])
  }

  @Test func embedPlacesTheImageOnABackground() throws {
    let source = try VipsImage.solid(width: 10, height: 6, color: [200, 100, 50])
    let framed = try source.embed(
      x: 3, y: 2, width: 20, height: 12, extend: .background, background: [0, 0, 255])
    #expect(framed.width == 20 && framed.height == 12)
    #expect(try framed.pixel(x: 0, y: 0) == [0, 0, 255])
    #expect(try framed.pixel(x: 3, y: 2) == [200, 100, 50])
    #expect(try framed.pixel(x: 12, y: 7) == [200, 100, 50])
    #expect(try framed.pixel(x: 13, y: 8) == [0, 0, 255])

    let white = try source.embed(x: 0, y: 0, width: 12, height: 6, extend: .white)
    #expect(try white.pixel(x: 11, y: 0) == [255, 255, 255])
    let copied = try source.embed(x: 0, y: 0, width: 12, height: 6, extend: .copy)
    #expect(try copied.pixel(x: 11, y: 0) == [200, 100, 50])
    let black = try source.embed(x: 2, y: 0, width: 12, height: 6, extend: .black)
    #expect(try black.pixel(x: 0, y: 0) == [0, 0, 0])
  }

  /// For each EXIF orientation, which stored corner (0 top-left, 1 top-right,
  /// 2 bottom-left, 3 bottom-right) ends up at each displayed corner.
  static let orientationCorners: [Int: [Int]] = [
    1: [0, 1, 2, 3], 2: [1, 0, 3, 2], 3: [3, 2, 1, 0], 4: [2, 3, 0, 1],
    5: [0, 2, 1, 3], 6: [2, 0, 3, 1], 7: [3, 1, 2, 0], 8: [1, 3, 0, 2],
  ]

  @Test(arguments: 1...8)
  func autoRotateAppliesEveryOrientation(orientation: Int) throws {
    let stored = try Fixtures.quadrants(width: 40, height: 20)
    let tagged = try stored.settingInt("orientation", orientation)
    #expect(tagged.orientation == orientation)
    let upright = try tagged.autoRotated()
    let transposed = orientation >= 5
    #expect(upright.width == (transposed ? 20 : 40))
    #expect(upright.height == (transposed ? 40 : 20))
    #expect(upright.orientation == 1, "the tag is removed once applied")

    let corners = [
      (1, 1), (upright.width - 2, 1), (1, upright.height - 2),
      (upright.width - 2, upright.height - 2),
    ]
    let mapping = try #require(Self.orientationCorners[orientation])
    for (displayed, (x, y)) in corners.enumerated() {
      let expected = Fixtures.quadrantColours[mapping[displayed]].map(Double.init)
      #expect(
        try upright.pixel(x: x, y: y) == expected,
        "orientation \(orientation), displayed corner \(displayed)")
    }
  }

  @Test func autoRotateOfAnUntaggedImageIsTheImage() throws {
    let image = try Fixtures.quadrants(width: 8, height: 4)
    #expect(try image.autoRotated() === image)
  }

  @Test func rotateAndFlip() throws {
    let image = try Fixtures.quadrants(width: 40, height: 20)
    let colours = Fixtures.quadrantColours.map { $0.map(Double.init) }
    let quarter = try image.rotated(degrees: 90)
    #expect(quarter.width == 20 && quarter.height == 40)
    #expect(try quarter.pixel(x: 0, y: 0) == colours[2])
    #expect(try image.rotated(degrees: -270).pixelBytes() == quarter.pixelBytes())
    #expect(try image.rotated(degrees: 180).pixel(x: 0, y: 0) == colours[3])
    #expect(try image.rotated(degrees: 270).pixel(x: 0, y: 0) == colours[1])
    #expect(try image.rotated(degrees: 360) === image)
    #expect(try image.flipped(horizontal: true).pixel(x: 0, y: 0) == colours[1])
    #expect(try image.flipped(horizontal: false).pixel(x: 0, y: 0) == colours[2])
  }
}
