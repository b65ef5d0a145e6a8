import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Wide gamut: measuring how far a profile reaches beyond sRGB, converting to Display P3,
/// and writing a file that carries its profile and nothing else.
@Suite struct VipsImageProfileTests {
  @Test("gamutBeyondSRGB: near 0 for sRGB, large for Display P3 and ProPhoto, 0 untagged")
  func gamutMeasure() throws {
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-profile")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = try Fixtures.gradient(width: 16, height: 16)
    #expect(photo.gamutBeyondSRGB() == 0)
    let srgb = try photo.iccTransformed(to: "srgb")
    #expect(srgb.hasICCProfile && srgb.gamutBeyondSRGB() < 5)
    let p3 = try Fixtures.displayP3(photo)
    #expect(p3.gamutBeyondSRGB() > 30)
    let proPhoto = try Fixtures.proPhoto(photo, folder: folder)
    #expect(proPhoto.format == .ushort && proPhoto.gamutBeyondSRGB() > 60)
    // Read back from files, as masters are: the profile travels with the pixels.
    let url = folder.appendingPathComponent("p3.png")
    try p3.save(path: url.path, as: .png, options: SaveOptions(stripMetadata: false))
    #expect(try VipsImage.load(path: url.path).gamutBeyondSRGB() > 30)
    // A CMYK profile is no RGB gamut; a damaged profile is read as sRGB, as libvips does.
    #expect(try photo.iccTransformed(to: "cmyk").gamutBeyondSRGB() == 0)
    #expect(try photo.settingBlob("icc-profile-data", [1, 2, 3]).gamutBeyondSRGB() < 5)
  }

  @Test("toRGB8(.displayP3) keeps P3 values of a P3 image and converts sRGB ones exactly")
  func toDisplayP3() throws {
    // A saturated P3 colour outside sRGB: unchanged when the target is P3 too.
    let p3Pixel = try VipsImage.pixels([20, 230, 40], width: 1, height: 1, bands: 3)
      .settingBlob(
        "icc-profile-data",
        try Fixtures.displayP3(VipsImage.solid(width: 1, height: 1, color: [0, 0, 0])).iccProfile!)
    let kept = try p3Pixel.toRGB8(.displayP3)
    #expect(kept.format == .uchar && kept.hasICCProfile)
    let values = try kept.pixel(x: 0, y: 0)
    #expect(zip(values, [20, 230, 40]).allSatisfy { abs($0 - $1) <= 1 }, "\(values)")
    // Clipped to sRGB, the same colour is visibly another (that is what P3 files keep).
    let clipped = try p3Pixel.toRGB8(.sRGB).pixel(x: 0, y: 0)
    #expect(zip(clipped, [20, 230, 40]).contains { abs($0 - $1) > 10 }, "\(clipped)")
    // An untagged (sRGB) image with alpha: converted, alpha kept, back to sRGB within 1.
    let rgba = try Fixtures.gradient(width: 20, height: 10, layout: .rgba)
    let inP3 = try rgba.toRGB8(.displayP3)
    #expect(inP3.bands == 4 && inP3.hasICCProfile)
    let back = try inP3.toSRGB8()
    let comparison = try ImageComparison(rgba, back)
    #expect(comparison.maxDifference <= 2, "\(comparison)")
  }

  @Test("keepProfile writes the ICC profile alone, in PNG and JPEG, the same bytes every time")
  func keepProfileWritesOnlyTheProfile() throws {
    let photo = try Fixtures.gradient(width: 24, height: 16)
    // Metadata a loaded master may carry besides its profile.
    let tagged = try Fixtures.displayP3(photo).settingBlob("xmp-data", Array("<x/>".utf8))
      .settingInt("orientation", 6)
    for format in [ImageFormat.png, .jpeg] {
      let options = SaveOptions(keepProfile: true)
      let bytes = try tagged.encoded(as: format, options: options)
      #expect(try tagged.encoded(as: format, options: options) == bytes)
      let loaded = try VipsImage.load(bytes: bytes)
      #expect(loaded.iccProfile == tagged.iccProfile, "\(format)")
      #expect(loaded.stringField("xmp-data") == nil && loaded.orientation == 1, "\(format)")
      // Without keepProfile: stripped, as every sRGB output is.
      let stripped = try VipsImage.load(bytes: try tagged.encoded(as: format))
      #expect(!stripped.hasICCProfile, "\(format)")
    }
    // An image without a profile saves as it always did.
    #expect(
      try photo.encoded(as: .png, options: SaveOptions(keepProfile: true))
        == photo.encoded(as: .png))
  }
}
