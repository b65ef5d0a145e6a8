import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct FixturesTests {
  @Test(arguments: PixelLayout.allCases, [8, 16])
  func generatedImagesHaveTheRequestedLayout(layout: PixelLayout, bitDepth: Int) throws {
    let image = try Fixtures.gradient(width: 33, height: 21, layout: layout, bitDepth: bitDepth)
    #expect(image.width == 33 && image.height == 21)
    #expect(image.bands == layout.bands)
    #expect(image.hasAlpha == layout.hasAlpha)
    #expect(image.format == (bitDepth == 16 ? .ushort : .uchar))
    let expected: Interpretation =
      switch (layout.colourBands, bitDepth) {
      case (1, 8): .bw
      case (1, _): .grey16
      case (_, 8): .srgb
      default: .rgb16
      }
    #expect(image.interpretation == expected)
  }

  @Test func gradientIsDeterministicAndRampsAsDocumented() throws {
    let first = try Fixtures.gradient(width: 51, height: 41)
    let second = try Fixtures.gradient(width: 51, height: 41)
    #expect(try first.pixelBytes() == second.pixelBytes())
    #expect(try first.pixel(x: 0, y: 0)[0...1] == [0, 0])
    #expect(try first.pixel(x: 50, y: 40)[0...1] == [255, 255])
    #expect(try first.pixel(x: 25, y: 0)[0] == 128)
  }

  @Test func alphaIsOpaqueInTheMiddleAndTransparentInCorners() throws {
    let image = try Fixtures.gradient(width: 41, height: 31, layout: .rgba)
    #expect(try image.pixel(x: 20, y: 15)[3] == 255)
    #expect(try image.pixel(x: 0, y: 0)[3] == 0)
    #expect(try image.pixel(x: 40, y: 30)[3] == 0)
  }

  @Test func sixteenBitSamplesKeepFullPrecision() throws {
    let image = try Fixtures.image(width: 3, height: 1, layout: .grey, bitDepth: 16) { x, _, _ in
      [1, 257, 65534][x]
    }
    #expect(try image.pixel(x: 0, y: 0) == [1])
    #expect(try image.pixel(x: 1, y: 0) == [257])
    #expect(try image.pixel(x: 2, y: 0) == [65534])
  }

  @Test func samplesOutsideTheRangeAreClamped() throws {
    let image = try Fixtures.image(width: 2, height: 1, layout: .grey) { x, _, _ in
      x == 0 ? -5 : 300
    }
    #expect(try image.pixelBytes() == [0, 255])
  }

  @Test func largeFixturesSpanSeveralDeflateBlocks() throws {
    // 300 × 300 × 4 bytes is well over one 64 KiB stored block.
    let image = try Fixtures.gradient(width: 300, height: 300, layout: .rgba)
    #expect(try image.pixel(x: 299, y: 150)[0] == 255)
    #expect(try image.pixel(x: 150, y: 299)[1] == 255)
  }

  @Test func quadrantsHaveTheirDocumentedColours() throws {
    let image = try Fixtures.quadrants(width: 10, height: 6)
    #expect(try image.pixel(x: 0, y: 0) == Fixtures.quadrantColours[0].map(Double.init))
    #expect(try image.pixel(x: 9, y: 0) == Fixtures.quadrantColours[1].map(Double.init))
    #expect(try image.pixel(x: 0, y: 5) == Fixtures.quadrantColours[2].map(Double.init))
    #expect(try image.pixel(x: 9, y: 5) == Fixtures.quadrantColours[3].map(Double.init))
  }

  @Test func photosDifferBySeedAndAreDeterministic() throws {
    let first = try Fixtures.photo(width: 60, height: 30, seed: 1)
    #expect(first.width == 60 && first.height == 30 && first.bands == 3)
    #expect(try first.pixelBytes() == Fixtures.photo(width: 60, height: 30, seed: 1).pixelBytes())
    #expect(try first.pixelBytes() != Fixtures.photo(width: 60, height: 30, seed: 2).pixelBytes())
    // Background, middle and inner rectangles: three colours.
    let corner = try first.pixel(x: 59, y: 29)
    #expect(corner == [37, 151, 173])
  }

  @Test func iconsAreAnOpaqueSquareOnTransparency() throws {
    let icon = try Fixtures.icon(width: 40, height: 40, seed: 3)
    #expect(icon.bands == 4 && icon.hasAlpha)
    #expect(try icon.pixel(x: 0, y: 0)[3] == 0)
    #expect(try icon.pixel(x: 9, y: 20)[3] == 0)
    #expect(try icon.pixel(x: 10, y: 10) == [123, 35, 200, 255])
    #expect(try icon.pixel(x: 29, y: 29)[3] == 255)
    #expect(try icon.pixel(x: 30, y: 29)[3] == 0)
  }

  @Test func stripedSVGsHaveOneBandPerColour() throws {
    let svg = Fixtures.svg(width: 30, height: 20, colors: ["#ff0000", "#0000ff"])
    let image = try VipsImage.svg(svg)
    #expect(image.width == 30 && image.height == 20)
    #expect(try image.pixel(x: 15, y: 2)[0...2] == [255, 0, 0])
    #expect(try image.pixel(x: 15, y: 17)[0...2] == [0, 0, 255])
  }

  @Test func blackPNGsAreValidBlackPNGsOfAnySize() throws {
    let small = Fixtures.blackPNG(width: 301, height: 7)
    let image = try VipsImage.load(bytes: Array(small))
    #expect(image.width == 301 && image.height == 7)
    #expect(try image.average() == 0)
    #expect(try image.pixel(x: 300, y: 6) == [0])
    // The 30000×30000 one only has its header read.
    let huge = try VipsImage.load(bytes: Array(Fixtures.hugePNG))
    #expect(huge.width == 30000 && huge.height == 30000)
    #expect(Fixtures.hugePNG.count < 1_000_000)
  }

  @Test func temporaryDirectoriesAreFreshAndDistinct() throws {
    let first = try Fixtures.temporaryDirectory()
    let second = try Fixtures.temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    #expect(first != second)
    #expect(try FileManager.default.contentsOfDirectory(atPath: first.path).isEmpty)
  }

  @Test func fileFixturesHaveTheDocumentedContents() throws {
    try withTemporaryDirectory { directory in
      let jpeg = try Fixtures.write(
        Fixtures.gradient(width: 40, height: 30), as: .jpeg, named: "photo", in: directory)
      #expect(jpeg.lastPathComponent == "photo.jpg")
      let full = try Data(contentsOf: jpeg)
      #expect(full.starts(with: [0xFF, 0xD8]))

      let truncated = try Fixtures.truncatedCopy(of: jpeg, keeping: 0.25)
      #expect(truncated.lastPathComponent == "photo-truncated.jpg")
      #expect(try Data(contentsOf: truncated) == full.prefix(full.count / 4))

      let empty = try Fixtures.zeroByteFile(in: directory)
      #expect(try Data(contentsOf: empty).isEmpty)

      let text = try Fixtures.textFile(in: directory)
      #expect(text.pathExtension == "png")
      #expect(String(decoding: try Data(contentsOf: text), as: UTF8.self).contains("plain text"))
    }
  }

  @Test func snowseekerCorpusIsFoundRelativeToThePackageRoot() throws {
    try withTemporaryDirectory { directory in
      let root = directory.appendingPathComponent("main")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      #expect(Fixtures.snowseekerCorpus(packageRoot: root) == nil)
      let images = directory.appendingPathComponent("shared/corpus/snowseeker/Images")
      try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
      let found = try #require(Fixtures.snowseekerCorpus(packageRoot: root))
      #expect(found.standardizedFileURL.path == images.standardizedFileURL.path)
    }
    #expect(
      FileManager.default.fileExists(
        atPath: Fixtures.packageRoot.appendingPathComponent("Package.swift").path))
  }

  /// The image files of the Snowseeker corpus (`Images/`), by name.
  static func snowseekerImageFiles(in corpus: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: corpus.path)
      .filter {
        ["png", "jpg", "jpeg", "webp"].contains(($0 as NSString).pathExtension.lowercased())
      }
      .sorted()
  }

  @Test(
    "The Snowseeker corpus holds a photo per resort and a flag per country, at both scales",
    .enabled(if: Fixtures.snowseekerCorpus != nil, "shared Snowseeker corpus is not checked out"))
  func snowseekerCorpusMatchesItsResortList() throws {
    let corpus = try #require(Fixtures.snowseekerCorpus)
    let list = corpus.deletingLastPathComponent().appendingPathComponent("resorts.json")
    let resorts = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: list)) as? [[String: Any]])
    let ids = resorts.compactMap { $0["id"] as? String }
    let countries = Set(resorts.compactMap { $0["country"] as? String })
    #expect(ids.count == 12 && countries.count == 5, "\(ids.count) resorts in \(countries)")
    let expected = Set(
      ids.map { "\($0)@2x.jpg" } + countries.flatMap { ["\($0)@2x.png", "\($0)@3x.png"] })
    #expect(Set(try Self.snowseekerImageFiles(in: corpus)) == expected)
  }

  @Test(
    "Every Snowseeker image has its known size and layout and shows a real picture",
    .enabled(if: Fixtures.snowseekerCorpus != nil, "shared Snowseeker corpus is not checked out"))
  func snowseekerCorpusImagesLoad() throws {
    let corpus = try #require(Fixtures.snowseekerCorpus)
    let files = try Self.snowseekerImageFiles(in: corpus)
    #expect(files.count == 22)
    for file in files {
      let image = try VipsImage.load(path: corpus.appendingPathComponent(file).path)
      // Photos are 2048×1024 JPEGs; flags are 2:1 PNGs of 200×100 points at their scale.
      // All are opaque sRGB: the app rounds the flags' corners itself.
      let scale = file.contains("@3x") ? 3 : 2
      let size = file.hasSuffix(".jpg") ? (2048, 1024) : (200 * scale, 100 * scale)
      #expect(image.width == size.0 && image.height == size.1, "\(file)")
      #expect(image.bands == 3 && !image.hasAlpha, "\(file)")
      #expect(image.interpretation == .srgb, "\(file)")

      // Not uniform, black or white: every band varies, and the picture is mid-toned.
      let small = try image.resize(width: 32, height: 16)
      let samples = try small.pixelBytes().map(Double.init)
      let mean = samples.reduce(0, +) / Double(samples.count)
      #expect((24...240).contains(mean), "\(file): mean \(mean)")
      for band in 0..<small.bands {
        let values = stride(from: band, to: samples.count, by: small.bands).map { samples[$0] }
        let bandMean = values.reduce(0, +) / Double(values.count)
        let variance =
          values.map { ($0 - bandMean) * ($0 - bandMean) }.reduce(0, +) / Double(values.count)
        #expect(
          values.min()! < values.max()! && variance.squareRoot() >= 4,
          "\(file) band \(band): \(values.min()!)...\(values.max()!), deviation \(variance.squareRoot())"
        )
      }
    }

    // A flag's two scales are the same picture.
    for file in files where file.hasSuffix("@3x.png") {
      let twice = file.replacingOccurrences(of: "@3x", with: "@2x")
      let large = try VipsImage.load(path: corpus.appendingPathComponent(file).path)
      let small = try VipsImage.load(path: corpus.appendingPathComponent(twice).path)
      let comparison = try ImageComparison(
        small, large.resize(width: small.width, height: small.height))
      #expect(
        comparison.meanDifference < 2 && comparison.hashDistance <= 2, "\(file): \(comparison)")
    }
  }

  @Test(arguments: [true, false])
  func cmykFixtureIsCMYK(embedProfile: Bool) throws {
    try withTemporaryDirectory { directory in
      let source = try Fixtures.gradient(width: 24, height: 16, layout: .rgba)
      let url = try Fixtures.cmykJPEG(from: source, in: directory, embedProfile: embedProfile)
      let image = try VipsImage.load(path: url.path)
      #expect(image.interpretation == .cmyk)
      #expect(image.bands == 4)
      #expect(image.hasICCProfile == embedProfile)
    }
  }
}
