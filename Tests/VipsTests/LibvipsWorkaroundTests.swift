import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// libvips 8.14 behaviours ThumbForge works around, each found by the pipeline property
/// test: a JPEG shrink-on-load factor larger than a side aborts the process, and `webpsave`
/// writes EXIF although told to strip.
@Suite("libvips 8.14 workarounds")
struct LibvipsWorkaroundTests {
  @Test("shrink-on-load never passes the short side (libvips aborts on 'bad dimensions')")
  func shrinkCappedBySide() throws {
    #expect(MasterImage.jpegShrink(source: (92, 4), needed: (1, 1)) == 2)
    #expect(MasterImage.jpegShrink(source: (4, 92), needed: (1, 1)) == 2)
    #expect(MasterImage.jpegShrink(source: (92, 9), needed: (1, 1)) == 8)
    #expect(MasterImage.jpegShrink(source: (1, 5000), needed: (1, 1)) == 1)
    #expect(MasterImage.jpegShrink(source: (1600, 1600), needed: (100, 100)) == 8)
    // The file that aborted the process: now decoded, shrunk as far as it can be.
    let jpeg = try VipsImage.solid(width: 92, height: 4, color: [10, 200, 30])
      .encoded(as: .jpeg)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-shrink-\(UInt64.random(in: 0...UInt64.max)).jpg").path
    try Data(jpeg).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let master = try MasterImage(
      path: path, resizes: [ResizeRequest(width: 2, height: 1)])
    #expect(master.shrink == 2 && master.image.height == 2)
  }

  @Test("a stripped WebP has no EXIF or XMP, whatever its source carried")
  func webpIsStripped() throws {
    // A source with EXIF (camera make, GPS) as a phone's JPEG carries it.
    var random = PropertyRandom(seed: 3)
    var camera = GeneratedMaster(
      path: "camera.jpg", format: .jpeg, width: 20, height: 10, layout: .rgb, gps: true)
    try camera.encode(seed: 3, random: &random)
    let image = try VipsImage.load(bytes: camera.bytes)
    #expect(image.hasMetadata && image.stringField("exif-ifd0-Make") != nil, "no EXIF to strip")
    let bytes = try image.encoded(as: .webp)
    let decoded = try VipsImage.load(bytes: bytes)
    #expect(!decoded.hasMetadata)
    #expect(decoded.width == 20 && decoded.height == 10)
    let kept = try VipsImage.load(
      bytes: try image.encoded(as: .webp, options: SaveOptions(stripMetadata: false)))
    #expect(kept.hasMetadata && kept.stringField("exif-ifd0-Make") != nil)
  }
}
