package import Foundation
package import Vips

/// Makes real, deterministic test images and files with libvips.
///
/// Every generator is a pure function of its arguments, so a test that encodes a fixture
/// gets the same bytes on every run. Files are written under directories made by
/// ``temporaryDirectory(prefix:)``; tests remove them when done.
package enum Fixtures {
  // MARK: - Images

  /// A deterministic "photo": horizontal red ramp, vertical green ramp, a blue wave texture
  /// and, for layouts with alpha, a radial alpha that is opaque in the middle and fully
  /// transparent in the corners.
  ///
  /// - Parameters:
  ///   - bitDepth: 8 (`uchar`, sRGB/B_W) or 16 (`ushort`, RGB16/GREY16).
  package static func gradient(
    width: Int, height: Int, layout: PixelLayout = .rgb, bitDepth: Int = 8
  ) throws -> VipsImage {
    let maxValue = bitDepth == 16 ? 65535 : 255
    let w = Double(max(width - 1, 1))
    let h = Double(max(height - 1, 1))
    let cx = Double(width - 1) / 2
    let cy = Double(height - 1) / 2
    let radius = (cx * cx + cy * cy).squareRoot()
    return try image(width: width, height: height, layout: layout, bitDepth: bitDepth) {
      x, y, band in
      let red = Double(x) / w
      let green = Double(y) / h
      let blue = 0.5 + 0.4 * sin(Double(x) / 6) * cos(Double(y) / 9)
      let unit: Double
      switch (layout.hasAlpha && band == layout.bands - 1, layout.colourBands, band) {
      case (true, _, _):
        let dx = Double(x) - cx
        let dy = Double(y) - cy
        let distance = (dx * dx + dy * dy).squareRoot() / max(radius, 1)
        // Opaque inside 40 % of the radius, transparent beyond 90 %.
        unit = min(max((0.9 - distance) / 0.5, 0), 1)
      case (false, 1, _): unit = 0.3 * red + 0.5 * green + 0.2 * blue
      case (false, _, 0): unit = red
      case (false, _, 1): unit = green
      default: unit = blue
      }
      return Int((unit * Double(maxValue)).rounded())
    }
  }

  /// An image whose four quadrants have different flat colours (top-left red, top-right
  /// green, bottom-left blue, bottom-right yellow), handy for checking rotations and flips.
  package static func quadrants(width: Int, height: Int) throws -> VipsImage {
    try image(width: width, height: height, layout: .rgb) { x, y, band in
      let right = x >= width / 2
      let bottom = y >= height / 2
      return quadrantColours[(bottom ? 2 : 0) + (right ? 1 : 0)][band]
    }
  }

  /// The colours of ``quadrants(width:height:)``: top-left, top-right, bottom-left,
  /// bottom-right.
  package static let quadrantColours: [[Int]] = [
    [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0],
  ]

  /// Builds an image pixel by pixel: `pixel(x, y, band)` returns a sample in
  /// 0...255 (8-bit) or 0...65535 (16-bit); values outside are clamped.
  ///
  /// The samples are written as an uncompressed PNG in memory and decoded by libvips'
  /// `pngload_buffer`, so the result has libvips' usual interpretation for the layout:
  /// `bw`/`srgb` at 8 bits, `grey16`/`rgb16` at 16 bits. Pixels are decoded eagerly.
  package static func image(
    width: Int, height: Int, layout: PixelLayout, bitDepth: Int = 8,
    pixel: (_ x: Int, _ y: Int, _ band: Int) -> Int
  ) throws -> VipsImage {
    precondition(width > 0 && height > 0, "fixture size must be positive")
    let bands = layout.bands
    var samples: [Int] = []
    samples.reserveCapacity(width * height * bands)
    for y in 0..<height {
      for x in 0..<width {
        for band in 0..<bands {
          samples.append(pixel(x, y, band))
        }
      }
    }
    let png = PNGEncoder.encode(
      width: width, height: height, bands: bands, bitDepth: bitDepth, samples: samples)
    return try VipsImage.load(bytes: png).copiedToMemory()
  }

  // MARK: - Files

  /// A new, empty, uniquely named directory under the system temporary directory.
  package static func temporaryDirectory(prefix: String = "thumbforge-tests") throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Saves `image` as `name` (the format's extension is added when `name` has none).
  @discardableResult
  package static func write(
    _ image: VipsImage, as format: ImageFormat, named name: String, in directory: URL,
    options: SaveOptions = SaveOptions()
  ) throws -> URL {
    let fileName = name.contains(".") ? name : "\(name).\(format.fileExtension)"
    let url = directory.appendingPathComponent(fileName)
    try image.save(path: url.path, as: format, options: options)
    return url
  }

  /// Writes a copy of `file` cut down to `fraction` of its length, named
  /// `<name>-truncated.<ext>` next to it.
  @discardableResult
  package static func truncatedCopy(of file: URL, keeping fraction: Double = 0.5) throws -> URL {
    let data = try Data(contentsOf: file)
    let kept = data.prefix(max(1, Int(Double(data.count) * fraction)))
    let name =
      file.deletingPathExtension().lastPathComponent + "-truncated." + file.pathExtension
    let url = file.deletingLastPathComponent().appendingPathComponent(name)
    try kept.write(to: url)
    return url
  }

  /// Writes an empty file.
  @discardableResult
  package static func zeroByteFile(named name: String = "empty.jpg", in directory: URL) throws
    -> URL
  {
    let url = directory.appendingPathComponent(name)
    try Data().write(to: url)
    return url
  }

  /// Writes a text file, by default one with an image extension, to check that loaders sniff
  /// content rather than trusting names.
  @discardableResult
  package static func textFile(
    named name: String = "not-an-image.png", in directory: URL,
    contents: String = "This is plain text, not a PNG.\n"
  ) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data(contents.utf8).write(to: url)
    return url
  }

  // MARK: - Shared corpus

  /// The package root, found from this file's location (`Sources/ThumbForgeTestSupport/`).
  package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ThumbForgeTestSupport
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()

  /// The shared Snowseeker image corpus (`../shared/corpus/snowseeker/Images` next to the
  /// package), or `nil` when it is not checked out.
  package static var snowseekerCorpus: URL? { snowseekerCorpus(packageRoot: packageRoot) }

  /// The Snowseeker corpus relative to a given package root, or `nil` when absent.
  package static func snowseekerCorpus(packageRoot: URL) -> URL? {
    let url =
      packageRoot
      .appendingPathComponent("../shared/corpus/snowseeker/Images", isDirectory: true)
      .standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    return url
  }

  // MARK: - CMYK

  /// Writes a CMYK JPEG converted with libvips' built-in CMYK profile, with that profile
  /// embedded or (`embedProfile: false`) stripped.
  @discardableResult
  package static func cmykJPEG(
    from image: VipsImage, named name: String = "cmyk.jpg", in directory: URL,
    embedProfile: Bool = true
  ) throws -> URL {
    let cmyk = try image.toSRGB8().flattened(background: [255, 255, 255]).colourspace(.cmyk)
    return try write(
      cmyk, as: .jpeg, named: name, in: directory,
      options: SaveOptions(quality: 95, stripMetadata: !embedProfile))
  }
}
