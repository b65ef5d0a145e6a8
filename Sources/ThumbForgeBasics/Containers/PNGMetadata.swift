/// A PNG file's metadata chunks, removed by rewriting the container: every other chunk
/// (the image data, the palette, `iCCP`, `sRGB`, `gAMA`, `cHRM`, `pHYs`, an APNG's frames)
/// is kept byte for byte, with its CRC, so the file decodes to exactly the pixels it had.
///
/// Removed: `tEXt`, `zTXt`, `iTXt` (text, including XMP), `eXIf` (EXIF) and `tIME`.
///
/// ```swift
/// PNGMetadata.stripped(bytes)  // nil: nothing to remove, or not a file this can walk
/// ```
enum PNGMetadata {
  /// `bytes` without their metadata chunks; nil when there are none, or when the chunks
  /// cannot be walked (not a PNG, a chunk running past the end, no `IEND`).
  static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.starts(with: signature) else { return nil }
    var out = signature
    out.reserveCapacity(bytes.count)
    var index = signature.count
    var dropped = false
    while index + 12 <= bytes.count {
      let length = bytes[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
      let end = index + 12 + length
      guard length <= Int(Int32.max), end <= bytes.count else { return nil }
      let type = Array(bytes[(index + 4)..<(index + 8)])
      if removed.contains(type) {
        dropped = true
      } else {
        out.append(contentsOf: bytes[index..<end])
      }
      index = end
      if type == imageEnd {
        out.append(contentsOf: bytes[index...])  // anything after IEND, as it is
        return dropped ? out : nil
      }
    }
    return nil
  }

  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  private static let imageEnd = Array("IEND".utf8)
  private static let removed: Set<[UInt8]> = Set(
    ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"].map { Array($0.utf8) })
}
