import CJPEG
import CResample
import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The fast paths of resizing while decoding must not change a byte: the AVX2 and AVX-512 resampler
/// passes against the portable ones, libjpeg-turbo decoding a JPEG directly against
/// libvips' loader, ThumbForge's own Huffman statistics against libjpeg's, and libvips'
/// format modules loaded on first need.
@Suite struct FastPathTests {
  static let resorts = ["les-arcs@2x.jpg", "snowbird@2x.jpg"].map {
    Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/\($0)")
  }

  @Test(
    .enabled(if: cresample_vector_passes_available() != 0, "this CPU has no AVX2"),
    arguments: [1, 2, 3, 4])
  func vectorPassesGiveThePortableBytes(bands: Int) throws {
    // Random sizes, scales (down and up), regions and kernels from a fixed seed.
    var seed: UInt64 = 0x5EED + UInt64(bands)
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for _ in 0..<40 {
      let width = 2 + next(260)
      let height = 2 + next(120)
      var source = [UInt8](repeating: 0, count: width * height * bands)
      for index in source.indices { source[index] = UInt8(next(256)) }
      let scaledWidth = 1 + next(width * 2)
      let scaledHeight = 1 + next(height * 2)
      let outWidth = 1 + next(scaledWidth)
      let outHeight = 1 + next(scaledHeight)
      let x = next(scaledWidth - outWidth + 1)
      let y = next(scaledHeight - outHeight + 1)
      let kernel = cresample_kernel(rawValue: UInt32(next(5)))
      // passes: 0 portable, 1 the widest (AVX-512 where the CPU has it), 2 AVX2 alone.
      func run(passes: Int32) -> [UInt8] {
        cresample_allow_vector_passes(passes)
        defer { cresample_allow_vector_passes(1) }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * bands)
        let status = cresample(
          source, Int32(width), Int32(height), Int32(bands), width * bands, Int32(scaledWidth),
          Int32(scaledHeight), Int32(x), Int32(y), Int32(outWidth), Int32(outHeight), kernel, &out)
        #expect(status == 0)
        return out
      }
      let description = "\(width)x\(height) → \(scaledWidth)x\(scaledHeight) @\(x),\(y)"
      let portable = run(passes: 0)
      #expect(run(passes: 2) == portable, "AVX2: \(description) kernel \(kernel.rawValue)")
      if cresample_avx512_passes_available() != 0 {
        #expect(run(passes: 1) == portable, "AVX-512: \(description) kernel \(kernel.rawValue)")
      }
      func halve(vector: Bool) -> [UInt8] {
        cresample_allow_vector_passes(vector ? 1 : 0)
        defer { cresample_allow_vector_passes(1) }
        var out = [UInt8](repeating: 0, count: (width / 2) * (height / 2) * bands)
        #expect(
          cresample_halve(source, Int32(width), Int32(height), Int32(bands), width * bands, &out)
            == 0)
        return out
      }
      #expect(halve(vector: true) == halve(vector: false), "halving \(width)x\(height)")
    }
  }

  @Test(arguments: [1, 2])
  func decodingAJPEGDirectlyGivesLibvipsPixels(shrink: Int) throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-direct-jpeg")
    defer { try? FileManager.default.removeItem(at: directory) }
    // The resort photos are progressive; libvips writes baseline; and one grey file.
    let photo = try VipsImage.load(path: Self.resorts[0].path)
    let baseline = try Fixtures.write(photo, as: .jpeg, named: "baseline.jpg", in: directory)
    let grey = try Fixtures.write(
      try Fixtures.gradient(width: 333, height: 211).colourspace(.bw), as: .jpeg,
      named: "grey.jpg", in: directory)
    for file in Self.resorts + [baseline, grey] {
      let options = LoadOptions(access: .sequential, shrink: shrink)
      let viaLibvips = try VipsImage.load(path: file.path, options: options)
      let direct = try VipsImage.load(path: file.path, options: options)
      let requests = [
        ResizeRequest(width: direct.width * 2 / 3, height: direct.height * 2 / 3),
        ResizeRequest(
          width: 300, height: 200, kernel: .cubic,
          region: VipsRect(x: 50, y: 20, width: 200, height: 150)),
      ]
      let expected = try viaLibvips.resizedInOnePass(requests, alsoHalve: true)
      let got = try direct.resizedInOnePass(
        requests, alsoHalve: true, decoding: JPEGFile(path: file.path, shrink: shrink))
      for (ours, theirs) in zip(got.images, expected.images) {
        #expect(try ours.pixelBytes() == theirs.pixelBytes(), "\(file.lastPathComponent)")
      }
      #expect(try got.half?.pixelBytes() == expected.half?.pixelBytes())
    }
  }

  @Test func theDirectDecoderReadsTheFileItIsGiven() throws {
    // Proof that the fast path runs (it would be invisible otherwise): handed another file
    // of the same size, the pass resizes that file's pixels.
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-direct-jpeg")
    defer { try? FileManager.default.removeItem(at: directory) }
    let photo = try VipsImage.load(path: Self.resorts[0].path)
    let upright = try Fixtures.write(photo, as: .jpeg, named: "upright.jpg", in: directory)
    let flipped = try Fixtures.write(
      try photo.flipped(horizontal: false), as: .jpeg, named: "flipped.jpg", in: directory)
    let request = ResizeRequest(width: 512, height: 256)
    let loaded = try VipsImage.load(path: upright.path, options: LoadOptions(access: .sequential))
    let swapped = try loaded.resizedInOnePass(
      [request], alsoHalve: false, decoding: JPEGFile(path: flipped.path))
    let expected = try VipsImage.load(path: flipped.path).resize(
      width: 512, height: 256, kernel: .lanczos3, region: nil)
    #expect(try swapped.images[0].pixelBytes() == expected.pixelBytes())
  }

  @Test func aTruncatedJPEGFailsTheDirectDecodeNamingFileAndReason() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-direct-jpeg")
    defer { try? FileManager.default.removeItem(at: directory) }
    // Baseline: libjpeg reads a progressive file whole when it opens it, so a cut
    // progressive file never reaches the direct decoder (libvips then reports it).
    let photo = try VipsImage.load(path: Self.resorts[1].path)
    let copy = try Fixtures.write(photo, as: .jpeg, named: "snowbird.jpg", in: directory)
    let truncated = try Fixtures.truncatedCopy(of: copy, keeping: 0.4)
    let image = try VipsImage.load(path: truncated.path, options: LoadOptions(access: .sequential))
    let error = try #require(throws: VipsError.self) {
      try image.resizedInOnePass(
        [ResizeRequest(width: 300, height: 150)], alsoHalve: false,
        decoding: JPEGFile(path: truncated.path))
    }
    #expect(error.context == truncated.path)
    #expect(error.message.lowercased().contains("premature end"), "\(error.message)")
  }

  @Test func aCMYKJPEGIsLeftToLibvips() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-direct-jpeg")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Fixtures.cmykJPEG(
      from: try Fixtures.gradient(width: 120, height: 80), in: directory, embedProfile: false)
    let image = try VipsImage.load(path: file.path, options: LoadOptions(access: .sequential))
    #expect(image.bands == 4)
    let request = ResizeRequest(width: 60, height: 40)
    let pass = try image.resizedInOnePass(
      [request], alsoHalve: false, decoding: JPEGFile(path: file.path))
    let reference = try VipsImage.load(path: file.path).resize(
      width: 60, height: 40, kernel: .lanczos3, region: nil)
    #expect(try pass.images[0].pixelBytes() == reference.pixelBytes())
  }

  @Test(arguments: [(82, false), (95, false), (82, true)])
  func directJPEGEncodingMatchesLibvips(quality: Int, interlace: Bool) throws {
    // A memory image takes the direct encoder; a lazy copy of the same pixels (flipped
    // twice) goes through libvips' jpegsave. Both run libjpeg-turbo with the same settings,
    // so the decoded pixels are identical; only the headers may differ.
    let photo = try VipsImage.load(path: Self.resorts[0].path).resize(
      width: 640, height: 320, kernel: .lanczos3, region: nil)
    let lazy = try photo.flipped(horizontal: true).flipped(horizontal: true)
    let options = SaveOptions(quality: quality, interlace: interlace)
    let direct = try VipsImage.load(bytes: photo.encoded(as: .jpeg, options: options))
    let libvips = try VipsImage.load(bytes: lazy.encoded(as: .jpeg, options: options))
    #expect(try direct.pixelBytes() == libvips.pixelBytes())
    #expect(direct.intField("interlaced") == libvips.intField("interlaced"))
    let grey = try Fixtures.gradient(width: 64, height: 48).colourspace(.bw).copiedToMemory()
    let decodedGrey = try VipsImage.load(bytes: grey.encoded(as: .jpeg, options: options))
    #expect(decodedGrey.bands == 1)
  }

  @Test(arguments: [30, 82, 95, 100])
  func ownHuffmanStatisticsGiveLibjpegsBytes(quality: Int) throws {
    // Odd sizes leave partial blocks and MCUs at the edges; grey is one non-interleaved
    // scan, colour three interleaved components (4:2:0 below quality 90, 4:4:4 above).
    let photo = try VipsImage.load(path: Self.resorts[1].path).resize(
      width: 777, height: 389, kernel: .lanczos3, region: nil)
    let grey = try photo.colourspace(.bw).copiedToMemory()
    let options = SaveOptions(quality: quality, optimizeCoding: true)
    for image in [photo, grey] {
      let before = cjpeg_fast_statistics_passes()
      let own = try image.encoded(as: .jpeg, options: options)
      #expect(cjpeg_fast_statistics_passes() == before + 1)
      cjpeg_allow_fast_statistics(0)
      defer { cjpeg_allow_fast_statistics(1) }
      let libjpegs = try image.encoded(as: .jpeg, options: options)
      let identical = own == libjpegs
      #expect(
        identical, "\(image.bands) bands: \(own.count) bytes against libjpeg's \(libjpegs.count)")
    }
  }

  // libvips reads PDF through its poppler module, which ThumbForge loads on first need.
  @Test(.enabled(if: Vips.hasOperation("pdfload"), "libvips was built without PDF"))
  func aPDFLoadsThroughItsModule() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-pdf")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("square.pdf")
    try Data(Self.minimalPDF.utf8).write(to: file)
    let image = try VipsImage.load(path: file.path)
    #expect(image.loader == "pdfload")
    // 72 x 36 points at libvips' default 72 dpi.
    #expect(image.width == 72 && image.height == 36)
  }

  /// One page of 72 x 36 points filled red; poppler rebuilds the cross-reference table.
  static let minimalPDF = Fixtures.pdf(width: 72, height: 36)
}
