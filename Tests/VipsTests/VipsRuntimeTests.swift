import Testing
import Vips

/// The process-wide `Vips` entry points.
@Suite struct VipsRuntimeTests {
  @Test func initialisesAndReportsItsVersion() throws {
    try Vips.initialize()
    try Vips.initialize()
    let parts = Vips.version.split(separator: ".").compactMap { Int($0) }
    #expect(parts.count == 3)
    #expect(parts.first == 8)
    #expect(Vips.concurrency >= 1)
  }

  @Test func reportsWhatThisBuildCanDo() {
    for format in [ImageFormat.png, .jpeg, .webp] {
      #expect(Vips.canSave(format), "\(format)")
    }
    #expect(Vips.hasOperation("resize"))
    #expect(Vips.hasOperation("pngload"))
    #expect(!Vips.hasOperation("no_such_operation"))
  }

  @Test func imageFormatsDescribeThemselves() {
    #expect(ImageFormat.jpeg.fileExtension == "jpg")
    #expect(ImageFormat.heif.fileExtension == "heic")
    #expect(!ImageFormat.jpeg.supportsAlpha)
    #expect(ImageFormat.allCases.filter(\.supportsAlpha) == [.png, .webp, .heif, .avif])
    #expect(ImageFormat.avif.fileExtension == "avif")
    #expect(BandFormat.ushort.bits == 16)
    #expect(BandFormat.dpcomplex.bits == 128)
  }

  @Test func errorsDescribeContextAndMessage() {
    #expect(VipsError(context: "a.jpg", message: "broken").description == "a.jpg: broken")
    #expect(VipsError(context: "a.jpg", message: "").description == "a.jpg")
  }
}
