import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics

@Suite("Geometry")
struct GeometryTests {
  @Test("Sizes in messages: whole points without decimals, others to one decimal")
  func pointSizeDescription() {
    #expect(
      PointSize(width: 908.333_333_333_333_4, height: 741.666_666_666_666_6).description
        == "908.3 × 741.7 pt")
    #expect(PointSize(width: 40, height: 25).description == "40 × 25 pt")
    #expect(PointSize(width: 0.04, height: 2.96).description == "0.0 × 3.0 pt")
    #expect(PointSize(width: -0.5, height: 12.25).description == "-0.5 × 12.3 pt")
  }

  @Test("points × scale rounds half away from zero, never below 1 px")
  func pointRounding() {
    #expect(PointSize(width: 40, height: 25).pixels(scale: 2) == PixelSize(width: 80, height: 50))
    #expect(PointSize(width: 40, height: 25).pixels(scale: 3) == PixelSize(width: 120, height: 75))
    #expect(PointSize(width: 10.5, height: 0.1).pixels(scale: 1) == PixelSize(width: 11, height: 1))
    #expect(
      PointSize(width: 33.5, height: 12.25).pixels(scale: 2) == PixelSize(width: 67, height: 25))
  }

  @Test(
    "fit never exceeds the box and touches it on one axis",
    arguments: [
      (PixelSize(width: 2048, height: 1024), PixelSize(width: 1024, height: 1024)),
      (PixelSize(width: 1024, height: 2048), PixelSize(width: 780, height: 390)),
      (PixelSize(width: 333, height: 777), PixelSize(width: 100, height: 100)),
      (PixelSize(width: 640, height: 480), PixelSize(width: 1200, height: 800)),
      (PixelSize(width: 1, height: 5000), PixelSize(width: 300, height: 300)),
    ])
  func fitTouchesBox(source: PixelSize, box: PixelSize) {
    let size = Geometry.fitSize(source, into: box)
    #expect(size.width <= box.width && size.height <= box.height)
    #expect(size.width == box.width || size.height == box.height)
    #expect(size.width >= 1 && size.height >= 1)
  }

  @Test("fit and fill sizes over a range of boxes")
  func fitFillProperty() {
    let source = PixelSize(width: 2048, height: 1365)
    for width in stride(from: 10, through: 1000, by: 37) {
      for height in stride(from: 10, through: 1000, by: 53) {
        let box = PixelSize(width: width, height: height)
        let fit = Geometry.fitSize(source, into: box)
        #expect(fit.width <= width && fit.height <= height)
        #expect(fit.width == width || fit.height == height)
        let fill = Geometry.fillSize(source, covering: box)
        #expect(fill.width >= width && fill.height >= height)
        #expect(fill.width == width || fill.height == height)
        // Aspect ratio kept within one pixel of rounding.
        let aspect = Double(source.width) / Double(source.height)
        #expect(abs(Double(fill.width) - Double(fill.height) * aspect) <= aspect + 1)
      }
    }
  }

  @Test("crop rectangles follow the gravity")
  func gravityCrops() {
    let scaled = PixelSize(width: 200, height: 100)
    let box = PixelSize(width: 100, height: 100)
    #expect(
      Geometry.cropRect(scaled, to: box, gravity: .center)
        == PixelRect(x: 50, y: 0, width: 100, height: 100))
    #expect(
      Geometry.cropRect(scaled, to: box, gravity: .west)
        == PixelRect(x: 0, y: 0, width: 100, height: 100))
    #expect(
      Geometry.cropRect(scaled, to: box, gravity: .east)
        == PixelRect(x: 100, y: 0, width: 100, height: 100))
    let tall = PixelSize(width: 100, height: 300)
    #expect(Geometry.cropRect(tall, to: box, gravity: .north).y == 0)
    #expect(Geometry.cropRect(tall, to: box, gravity: .south).y == 200)
    #expect(
      Geometry.cropRect(tall, to: box, gravity: .southeast)
        == PixelRect(x: 0, y: 200, width: 100, height: 100))
    #expect(Geometry.cropRect(tall, to: box, gravity: .center).y == 100)
  }

  @Test("gravity names accept libvips' spelling")
  func gravityNames() {
    #expect(Gravity(name: "centre") == .center)
    #expect(Gravity(name: "attention")?.isSmart == true)
    #expect(Gravity(name: "middle") == nil)
  }
}

@Suite struct PathNumberTests {
  /// The hand-written formatting gives what `%.4f` with its trailing zeros dropped gives.
  @Test func numbersMatchFourDecimalsWithoutTrailingZeros() {
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, -0.5, 12.25, 1.528665, -3.14159265, 0.00004,
      -0.00004, 0.00005, 99.99996, 1e-9, 40.000049, 123456.7891,
    ]
    var state: UInt64 = 42
    for _ in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Double(Int64(bitPattern: state) % 2_000_000_000) / 1_000_000 / 7)
    }
    for value in values {
      let rounded = (value * 10_000).rounded() / 10_000
      var expected = String(format: "%.4f", rounded)
      if rounded == rounded.rounded() {
        expected = String(Int(rounded))
      } else {
        while expected.hasSuffix("0") { expected.removeLast() }
      }
      #expect(RoundedRectPath.n(value) == expected, "\(value)")
    }
  }
}
