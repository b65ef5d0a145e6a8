import CJPEG
import CResample
import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// The C codecs' own guards, called through their C APIs directly: they must not rely on
/// the checks of their Swift callers.
@Suite struct CCodecGuardTests {
  /// Noise pixels (incompressible) from a fixed seed.
  static func noise(width: Int, height: Int, bands: Int, seed: UInt64 = 0x5EED) -> [UInt8] {
    var state = seed
    return (0..<(width * height * bands)).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }

  /// `pixels` encoded by CJPEG with optimized tables.
  static func encode(
    _ pixels: [UInt8], width: Int, height: Int, bands: Int, quality: Int,
    progressive: Bool = false
  ) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cjpeg_encode(
      pixels, Int32(width), Int32(height), Int32(bands), width * bands, Int32(quality), 1,
      progressive ? 1 : 0, &out, &size, &message, message.count)
    try #require(status == 0, "\(String(nulTerminated: message))")
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }

  // MARK: - Huffman statistics: the guarded fast pass and its fallback

  @Test func aFailedLibraryCheckFallsBackToLibjpegWithTheSameBytes() throws {
    let pixels = Self.noise(width: 97, height: 61, bands: 3)
    // Smooth enough for long zero runs too: every other row flat.
    let smooth = pixels.enumerated().map { $0.offset / (97 * 3) % 2 == 0 ? 128 : $0.element }
    for (image, bands, width) in [(pixels, 3, 97), (smooth, 3, 97), (pixels, 1, 97 * 3)] {
      for quality in [50, 95] {
        let own = try Self.encode(image, width: width, height: 61, bands: bands, quality: quality)
        cjpeg_fail_statistics_check(1)
        defer { cjpeg_fail_statistics_check(0) }
        #expect(cjpeg_fast_statistics_supported() == 0)
        let before = cjpeg_fast_statistics_passes()
        let fallback = try Self.encode(
          image, width: width, height: 61, bands: bands, quality: quality)
        // The fallback took libjpeg's own statistics pass: ThumbForge's counted nothing.
        #expect(cjpeg_fast_statistics_passes() == before)
        #expect(fallback == own, "\(bands) bands, quality \(quality)")
      }
    }
  }

  @Test func theVerifiedLibraryPassesTheCheckAndUsesTheOwnPass() throws {
    // Debian bookworm's libjpeg-turbo 2.1.5 is the verified one; built against anything
    // else the own pass is compiled out, which this test then only reports.
    guard cjpeg_fast_statistics_supported() != 0 else {
      withKnownIssue("libjpeg is not the verified libjpeg-turbo 2.1.x") {
        Issue.record("own statistics pass unsupported here")
      }
      return
    }
    let before = cjpeg_fast_statistics_passes()
    _ = try Self.encode(
      Self.noise(width: 40, height: 30, bands: 3), width: 40, height: 30, bands: 3, quality: 82)
    #expect(cjpeg_fast_statistics_passes() == before + 1)
  }

  // MARK: - Limits before allocation

  /// A real 320×320 noise JPEG (about a quarter of a megabyte) whose SOF header claims
  /// `width` × `height`.
  static func jpegClaiming(width: Int, height: Int, progressive: Bool = false) throws -> [UInt8] {
    var bytes = try encode(
      noise(width: 320, height: 320, bands: 3), width: 320, height: 320, bands: 3, quality: 95,
      progressive: progressive)
    var at = 2
    while at + 9 < bytes.count {
      let marker = bytes[at + 1]
      if marker == 0xC0 || marker == 0xC2 {
        bytes[at + 5] = UInt8(height >> 8)
        bytes[at + 6] = UInt8(height & 0xFF)
        bytes[at + 7] = UInt8(width >> 8)
        bytes[at + 8] = UInt8(width & 0xFF)
        return bytes
      }
      at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
    }
    Issue.record("no SOF marker")
    return bytes
  }

  @Test(arguments: [false, true])
  func aHugeHeaderIsRefusedBeforeDecoding(progressive: Bool) throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-limits")
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes = try Self.jpegClaiming(width: 30000, height: 30000, progressive: progressive)
    #expect(bytes.count > 200_000 && bytes.count < 400_000, "\(bytes.count) bytes")
    let file = directory.appendingPathComponent("huge.jpg")
    try Data(bytes).write(to: file)

    // The C API on its own, from a file and from memory: refused by the open call, which
    // reads the header only (nothing is decoded before a read).
    var status = CJPEG_OK
    var message = [CChar](repeating: 0, count: 256)
    let limit = UInt64(JPEGFile.defaultLimitInputPixels)
    #expect(cjpeg_open(file.path, 1, 0, limit, &status, &message, message.count) == nil)
    #expect(status == CJPEG_TOO_LARGE)
    #expect(
      String(nulTerminated: message)
        == "image is 30000x30000 (900000000 pixels), over the limit of 268402689 pixels (limit-input-pixels)"
    )
    status = CJPEG_OK
    let fromMemory = bytes.withUnsafeBufferPointer {
      cjpeg_open_memory($0.baseAddress, $0.count, 2, 1, limit, &status, &message, message.count)
    }
    #expect(fromMemory == nil && status == CJPEG_TOO_LARGE)

    // Through the Swift layers: MasterImage (its own check), and the direct decoder given a
    // file the checked image does not describe (cjpeg_open's check).
    let error = try #require(throws: VipsError.self) {
      _ = try MasterImage(path: file.path, resizes: [ResizeRequest(width: 100, height: 100)])
    }
    #expect(error.context == file.path && error.message.contains("limit-input-pixels"))
    let small = directory.appendingPathComponent("small.jpg")
    try Data(
      try Self.encode(
        Self.noise(width: 64, height: 64, bands: 3), width: 64, height: 64, bands: 3,
        quality: 82)
    ).write(to: small)
    let image = try VipsImage.load(path: small.path, options: LoadOptions(access: .sequential))
    let direct = try #require(throws: VipsError.self) {
      _ = try image.resizedInOnePass(
        [ResizeRequest(width: 32, height: 32)], alsoHalve: false,
        decoding: JPEGFile(path: file.path))
    }
    #expect(direct.context == file.path && direct.message.contains("over the limit"))
  }

  @Test func withinTheLimitAWrongHeaderStillDecodesLeniently() throws {
    // A progressive file claiming 1000×900 with the data of 320×320: the memory bound
    // (from the header) admits its coefficient buffer, and leniently libjpeg decodes the
    // claimed size, warning about the data it lacks.
    let bytes = try Self.jpegClaiming(width: 1000, height: 900, progressive: true)
    var status = CJPEG_FAILED
    var message = [CChar](repeating: 0, count: 256)
    let stream = bytes.withUnsafeBufferPointer {
      cjpeg_open_memory($0.baseAddress, $0.count, 1, 0, 0, &status, &message, message.count)
    }
    let opened = try #require(stream, "\(String(nulTerminated: message))")
    defer { cjpeg_close(opened) }
    #expect(status == CJPEG_OK)
    #expect(cjpeg_width(opened) == 1000 && cjpeg_height(opened) == 900)
    var rows = [UInt8](repeating: 0, count: 1000 * 3 * 900)
    #expect(cjpeg_read(opened, &rows, 3000, 900, &message, message.count) == 0)
    // Reading past the end, a short stride and a negative count are refused.
    #expect(cjpeg_read(opened, &rows, 3000, 1, &message, message.count) == -1)
  }

  @Test func badStripArgumentsAreRefused() throws {
    let bytes = try Self.encode(
      Self.noise(width: 40, height: 24, bands: 3), width: 40, height: 24, bands: 3, quality: 82)
    var message = [CChar](repeating: 0, count: 256)
    let stream = try #require(
      bytes.withUnsafeBufferPointer {
        cjpeg_open_memory($0.baseAddress, $0.count, 1, 1, 0, nil, &message, message.count)
      })
    defer { cjpeg_close(stream) }
    var rows = [UInt8](repeating: 0, count: 40 * 3 * 24)
    #expect(cjpeg_read(stream, &rows, 40 * 3 - 1, 1, &message, message.count) == -1)
    #expect(cjpeg_read(stream, &rows, 40 * 3, -1, &message, message.count) == -1)
    #expect(String(nulTerminated: message) == "bad strip arguments")
  }

  // MARK: - Resampler arguments near INT_MAX

  @Test func resamplerRegionsNearIntMaxAreRefused() {
    let source = [UInt8](repeating: 200, count: 16 * 16 * 3)
    var out = [UInt8](repeating: 0, count: 64 * 64 * 3)
    let big = Int32.max
    // (scaled, x, out): x + out wraps around in 32 bits.
    let wrapping: [(Int32, Int32, Int32)] = [
      (1000, big - 10, 100), (big, big - 10, 100), (big, big, 1), (100, 1, big),
    ]
    for (scaled, x, count) in wrapping {
      #expect(
        cresample(
          source, 16, 16, 3, 48, scaled, 16, x, 0, count, 16, CRESAMPLE_LANCZOS3, &out) == -1,
        "x \(x) + \(count) > \(scaled)")
      #expect(
        cresample(
          source, 16, 16, 3, 48, 16, scaled, 0, x, 16, count, CRESAMPLE_LANCZOS3, &out) == -1,
        "y \(x) + \(count) > \(scaled)")
      #expect(
        cresample_stream_new(16, 16, 3, scaled, 16, x, 0, count, 16, CRESAMPLE_CUBIC, &out)
          == nil)
    }
    // A real region at the far end of a huge scale is fine: the last 10 columns of 16
    // pixels stretched to INT_MAX are the last source pixel's colour.
    #expect(
      cresample(
        source, 16, 16, 3, 48, big, 16, big - 10, 0, 10, 16, CRESAMPLE_LANCZOS3, &out) == 0)
    #expect(out[0..<(10 * 16 * 3)].allSatisfy { $0 == 200 })
    // Strips whose rows would run past INT_MAX.
    let stream = cresample_stream_new(16, 16, 3, 8, 8, 0, 0, 8, 8, CRESAMPLE_LINEAR, &out)
    defer { cresample_stream_free(stream) }
    #expect(cresample_stream_push(stream, source, 48, big - 7, 16) == -1)
    #expect(cresample_stream_push(stream, source, 48, -8, 16) == -1)
    #expect(cresample_halve_strip(source, 16, 3, 48, big - 1, 4, &out) == -1)
  }
}
