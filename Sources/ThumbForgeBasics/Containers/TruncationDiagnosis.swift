/// Says whether an image file ends before its container does, from the container alone (no
/// decoder): a PNG without `IEND` or with a chunk running past the end, a JPEG without its
/// end-of-image marker, a GIF without its trailer, a WebP shorter than its RIFF header says.
/// libvips often reports such files with no message of its own, or with a message left by
/// another file's decode in its process-wide error buffer; this gives a failure its own
/// reason.
///
/// ```swift
/// TruncationDiagnosis.reason(bytes)  // "PNG truncated after 2.9 KB (its header declares 600×300)"
/// ```
enum TruncationDiagnosis {
  /// A plain-words reason when `bytes` are a truncated PNG, JPEG, GIF or WebP; nil when the
  /// container is complete or not one of those.
  static func reason(_ bytes: [UInt8]) -> String? {
    let walked: (format: String, walk: Walk)?
    if bytes.starts(with: pngSignature) {
      walked = ("PNG", png(bytes))
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      walked = ("JPEG", jpeg(bytes))
    } else if bytes.starts(with: Array("GIF8".utf8)) {
      walked = ("GIF", gif(bytes))
    } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      walked = ("WebP", webp(bytes))
    } else {
      walked = nil
    }
    guard let (format, walk) = walked, walk.truncated else { return nil }
    let size = ErrorWording.formatBytes(bytes.count)
    guard let width = walk.width, let height = walk.height else {
      return "\(format) truncated after \(size), inside its header"
    }
    return "\(format) truncated after \(size) (its header declares \(width)×\(height))"
  }

  /// What a walk of a container found.
  private struct Walk {
    var truncated: Bool
    var width: Int?
    var height: Int?
  }

  private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
    guard at >= 0, at + count <= bytes.count else { return nil }
    return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
  }

  private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
    guard at >= 0, at + count <= bytes.count else { return nil }
    return bytes[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
  }

  /// Chunks from the signature to `IEND`; the size is `IHDR`'s.
  private static func png(_ bytes: [UInt8]) -> Walk {
    var walk = Walk(
      truncated: true, width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    var index = pngSignature.count
    while let length = bigEndian(bytes, index, 4), index + 12 + length <= bytes.count {
      let type = bytes[(index + 4)..<(index + 8)]
      index += 12 + length
      if type.elementsEqual("IEND".utf8) {
        walk.truncated = false
        break
      }
    }
    return walk
  }

  /// Marker segments to the first scan, then an end-of-image marker anywhere after it; the
  /// size is the first frame header's (SOF0–SOF15 but DHT, JPG and DAC).
  private static func jpeg(_ bytes: [UInt8]) -> Walk {
    var walk = Walk(truncated: true)
    var index = 2
    while index + 4 <= bytes.count, bytes[index] == 0xFF {
      let marker = bytes[index + 1]
      if marker == 0xFF {  // fill byte
        index += 1
        continue
      }
      guard let length = bigEndian(bytes, index + 2, 2), length >= 2 else { return walk }
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), walk.width == nil {
        walk.height = bigEndian(bytes, index + 5, 2)
        walk.width = bigEndian(bytes, index + 7, 2)
      }
      index += 2 + length
      if marker == 0xDA { break }  // start of scan: entropy-coded data follows
    }
    guard index <= bytes.count else { return walk }
    var scan = index
    while scan + 1 < bytes.count {
      if bytes[scan] == 0xFF && bytes[scan + 1] == 0xD9 {
        walk.truncated = false
        break
      }
      scan += 1
    }
    return walk
  }

  /// A GIF ends with its trailer byte (`;`); the size is the logical screen's.
  private static func gif(_ bytes: [UInt8]) -> Walk {
    Walk(
      truncated: bytes.count < 14 || !bytes.suffix(2).contains(0x3B),
      width: littleEndian(bytes, 6, 2), height: littleEndian(bytes, 8, 2))
  }

  /// A WebP's RIFF header gives its length; the size is the first frame's (VP8, VP8L, or
  /// the canvas of VP8X).
  private static func webp(_ bytes: [UInt8]) -> Walk {
    let declared = (littleEndian(bytes, 4, 4) ?? 0) + 8
    var walk = Walk(truncated: bytes.count < declared)
    let chunk = bytes.count >= 16 ? String(decoding: bytes[12..<16], as: UTF8.self) : ""
    switch chunk {
    case "VP8 ":
      walk.width = littleEndian(bytes, 26, 2).map { $0 & 0x3FFF }
      walk.height = littleEndian(bytes, 28, 2).map { $0 & 0x3FFF }
    case "VP8L":
      if let bits = littleEndian(bytes, 21, 4) {
        walk.width = (bits & 0x3FFF) + 1
        walk.height = ((bits >> 14) & 0x3FFF) + 1
      }
    case "VP8X":
      walk.width = littleEndian(bytes, 24, 3).map { $0 + 1 }
      walk.height = littleEndian(bytes, 27, 3).map { $0 + 1 }
    default: break
    }
    return walk
  }
}
