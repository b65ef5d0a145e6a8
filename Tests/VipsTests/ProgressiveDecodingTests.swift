import CJPEG
import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// Progressive JPEG masters (the SnowSeeker photos are progressive) are decoded by
/// libjpeg-turbo through CJPEG's direct decoder: the pixels must be libvips' own, and damaged
/// files must fail strictly and decode leniently, never crash.
///
/// (ThumbForge had its own progressive entropy decoder until 0.4.0, compared here with
/// libjpeg's; it was removed, being coupled to libjpeg-turbo's private structures.)
@Suite struct ProgressiveDecodingTests {
  /// A decode's outcome: the pixels, or libjpeg's message for the first problem.
  struct Decoded: Equatable, CustomStringConvertible {
    var width = 0
    var height = 0
    var pixels: [UInt8] = []
    var error: String?

    var description: String {
      error.map { "error \($0)" } ?? "\(width)x\(height), \(pixels.count) bytes"
    }
  }

  /// Decodes `file` whole through CJPEG; `strict` makes every warning an error.
  static func decode(_ file: URL, strict: Bool) -> Decoded {
    var message = [CChar](repeating: 0, count: 256)
    var result = Decoded()
    guard
      let stream = cjpeg_open(
        file.path, 1, strict ? 1 : 0, UInt64(JPEGFile.defaultLimitInputPixels), nil, &message,
        message.count)
    else {
      result.error = String(nulTerminated: message)
      return result
    }
    defer { cjpeg_close(stream) }
    result.width = Int(cjpeg_width(stream))
    result.height = Int(cjpeg_height(stream))
    let stride = result.width * Int(cjpeg_bands(stream))
    result.pixels = [UInt8](repeating: 0, count: stride * result.height)
    let status = result.pixels.withUnsafeMutableBufferPointer {
      cjpeg_read(
        stream, $0.baseAddress, stride, Int32(result.height), &message, message.count)
    }
    if status != 0 { result.error = String(nulTerminated: message) }
    return result
  }

  /// Progressive files of every shape ThumbForge meets: the SnowSeeker photos (4:4:4, nine
  /// scans), libjpeg's standard script with successive approximation in 4:2:0, 4:4:4 and
  /// grey at an odd size, and restart markers (every MCU, and every 7).
  static func progressiveFiles(in directory: URL) throws -> [URL] {
    let photo = try VipsImage.load(
      path: Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/snowbird@2x.jpg").path)
    let odd = try photo.resize(width: 777, height: 389, kernel: .lanczos3, region: nil)
    let grey = try odd.colourspace(.bw).copiedToMemory()
    let settings: [(String, VipsImage, SaveOptions)] = [
      ("q82.jpg", odd, SaveOptions(quality: 82, interlace: true)),
      ("q95.jpg", odd, SaveOptions(quality: 95, interlace: true)),
      ("grey.jpg", grey, SaveOptions(quality: 82, interlace: true)),
      ("restart1.jpg", odd, SaveOptions(quality: 82, interlace: true, restartInterval: 1)),
      ("restart7.jpg", grey, SaveOptions(quality: 90, interlace: true, restartInterval: 7)),
    ]
    var files = ["les-arcs@2x.jpg", "snowbird@2x.jpg"].map {
      Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/\($0)")
    }
    for (name, image, options) in settings {
      let url = directory.appendingPathComponent(name)
      try Data(image.encoded(as: .jpeg, options: options)).write(to: url)
      files.append(url)
    }
    return files
  }

  @Test func wholeFilesGiveLibvipsPixels() throws {
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-progressive")
    defer { try? FileManager.default.removeItem(at: directory) }
    for file in try Self.progressiveFiles(in: directory) {
      let ours = Self.decode(file, strict: true)
      let libvips = try VipsImage.load(path: file.path)
      #expect(ours.error == nil, "\(file.lastPathComponent): \(ours)")
      #expect(ours.width == libvips.width && ours.height == libvips.height)
      #expect(ours.pixels == (try libvips.pixelBytes()), "\(file.lastPathComponent)")
    }
  }

  /// `jpeg` with its last AC refinement scan (start of scan header and data) sent twice.
  static func repeatingLastRefinement(_ jpeg: [UInt8]) throws -> [UInt8] {
    var scans: [Range<Int>] = []
    var at = 2
    while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
      let marker = jpeg[at + 1]
      if marker == 0xD9 { break }
      let end = at + 2 + Int(jpeg[at + 2]) << 8 + Int(jpeg[at + 3])
      guard marker == 0xDA else {
        at = end
        continue
      }
      // Entropy-coded data runs to the next marker other than a stuffed byte or restart.
      var next = end
      while next + 1 < jpeg.count,
        !(jpeg[next] == 0xFF && jpeg[next + 1] != 0 && !(0xD0...0xD7).contains(jpeg[next + 1]))
      {
        next += 1
      }
      let components = Int(jpeg[at + 4])
      let spectralStart = jpeg[at + 5 + 2 * components]
      let approximationHigh = jpeg[at + 7 + 2 * components] >> 4
      if spectralStart > 0 && approximationHigh > 0 { scans.append(at..<next) }
      at = next
    }
    let last = try #require(scans.last, "no AC refinement scan")
    return Array(jpeg[..<last.upperBound] + jpeg[last] + jpeg[last.upperBound...])
  }

  @Test func damagedFilesFailStrictlyAndDecodeLeniently() throws {
    // Cut files end mid-scan (and leave later scans missing); corrupted bytes give bad
    // codes, runs past the band, lost restart markers and bytes left over before a marker;
    // spliced ones run out of data before a marker; a repeated scan refines bits already
    // refined. libjpeg warns on each, so strictly each is an error.
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-progressive")
    defer { try? FileManager.default.removeItem(at: directory) }
    var damaged: [URL] = []
    for file in try Self.progressiveFiles(in: directory) {
      let bytes = try [UInt8](Data(contentsOf: file))
      for fraction in [0.3, 0.6, 0.9] {
        let cut = directory.appendingPathComponent(
          "cut\(Int(fraction * 100))-\(file.lastPathComponent)")
        try Data(bytes[..<Int(Double(bytes.count) * fraction)]).write(to: cut)
        damaged.append(cut)
      }
      var corrupted = bytes
      // Past the headers (the first few kilobytes), a byte in each third of the data.
      for fraction in [0.2, 0.5, 0.8] {
        let at = Int(Double(bytes.count) * fraction)
        corrupted[at] ^= corrupted[at] == 0xFF ? 0x01 : 0x5A
      }
      let url = directory.appendingPathComponent("corrupt-\(file.lastPathComponent)")
      try Data(corrupted).write(to: url)
      // A stretch cut out of the middle: a scan runs out of data before the next marker.
      let middle = bytes.count / 2
      let spliced = directory.appendingPathComponent("spliced-\(file.lastPathComponent)")
      try Data(bytes[..<middle] + bytes[(middle + 1000)...]).write(to: spliced)
      // A refinement scan sent twice: its correction bits then meet bits already set.
      let repeated = directory.appendingPathComponent("repeated-\(file.lastPathComponent)")
      try Data(try Self.repeatingLastRefinement(bytes)).write(to: repeated)
      damaged += [url, spliced, repeated]
    }
    for file in damaged {
      #expect(Self.decode(file, strict: true).error != nil, "\(file.lastPathComponent)")
      // Leniently, a whole image (cut files at least: libjpeg fills in what is missing)
      // or, when corruption hits a scan header, an error; never a crash.
      let lenient = Self.decode(file, strict: false)
      if file.lastPathComponent.hasPrefix("cut") {
        #expect(lenient.error == nil, "\(file.lastPathComponent): \(lenient)")
      }
      if lenient.error == nil {
        #expect(lenient.width > 0 && lenient.height > 0, "\(file.lastPathComponent)")
      }
    }
  }
}
