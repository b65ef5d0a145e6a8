import Testing
import ThumbForgeTestSupport

@testable import Vips

/// Images a job hands to another thread are linked to no other image (libvips 8.14 may
/// crash when two threads compute pipelines linked to one image while one of them frees
/// an image in it: a build of 300 flags at four jobs crashed about once in ten runs).
@Suite("Detached images")
struct DetachedImageTests {
  /// The probe can say yes: a libvips operation's result is linked below its input.
  @Test("an operation's result is linked below its input")
  func operationIsLinked() throws {
    let source = try Fixtures.gradient(width: 64, height: 48, layout: .rgb)
    let copy = try source.copiedToMemory()
    #expect(copy.isLinked(below: source))
  }

  @Test("a detached copy has the pixels and metadata, and no link")
  func detachedCopy() throws {
    let source = try Fixtures.displayP3(Fixtures.gradient(width: 64, height: 48, layout: .rgb))
      .addingAlpha()
    for image in [source, try source.copiedToMemory()] {
      let copy = try image.detached()
      #expect(!copy.isLinked(below: image))
      #expect(!copy.isLinked(below: source))
      #expect(copy.width == 64 && copy.height == 48 && copy.bands == image.bands)
      #expect(copy.interpretation == image.interpretation)
      #expect(copy.hasICCProfile)
      #expect(try copy.pixelBytes() == image.pixelBytes())
    }
  }

  @Test("one pass's resizes and half-size copy are not linked to the image resized")
  func onePassResultsStandAlone() throws {
    let source = try Fixtures.gradient(width: 300, height: 200, layout: .rgb).copiedToMemory()
    let requests = [
      ResizeRequest(width: 150, height: 100), ResizeRequest(width: 90, height: 60),
    ]
    let (images, half) = try source.resizedInOnePass(requests, alsoHalve: true)
    for image in images + [half!] {
      #expect(!image.isLinked(below: source))
    }
  }

  @Test("an opaque master's resizes are handed over unlinked")
  func opaqueMasterResizesStandAlone() throws {
    let decoded = try Fixtures.gradient(width: 300, height: 200, layout: .rgb).copiedToMemory()
    let master = MasterImage(decoded: decoded)
    var handed = 0
    try master.resize([
      ResizeRequest(width: 150, height: 100), ResizeRequest(width: 30, height: 20),
      ResizeRequest(width: 60, height: 40),
    ]) { _, image throws(VipsError) in
      handed += 1
      #expect(!image.isLinked(below: decoded), "\(image.width)x\(image.height)")
    }
    #expect(handed == 3)
  }
}
