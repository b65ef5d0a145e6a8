/// A JPEG file's metadata segments, removed by rewriting the container: the entropy-coded
/// data, the tables, the JFIF and Adobe segments and the ICC profile (APP2) are kept byte for
/// byte, so the file decodes to exactly the pixels it had.
///
/// Removed: APP1 (EXIF — a phone's GPS position, the camera — and XMP), APP13 (Photoshop's
/// IPTC) and COM (comments). The renderer checks the result decodes to the same pixels
/// before shipping it (see ``Renderer``'s `carried`).
///
/// ```swift
/// JPEGMetadata.stripped(bytes)  // nil: nothing to remove, or not a file this can walk
/// ```
enum JPEGMetadata {
  /// `bytes` without their metadata segments; nil when there are none, when the header
  /// cannot be walked (not a JPEG, a truncated segment), or when the file carries a
  /// multi-picture index (MPF), whose offsets to the images after the first would move.
  static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var out: [UInt8] = [0xFF, 0xD8]
    out.reserveCapacity(bytes.count)
    var index = 2
    var dropped = false
    while true {
      guard index < bytes.count, bytes[index] == 0xFF else { return nil }
      var markerAt = index + 1
      while markerAt < bytes.count && bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
      guard markerAt < bytes.count else { return nil }
      let marker = bytes[markerAt]
      if marker == startOfScan {
        out.append(contentsOf: bytes[index...])  // the scans and whatever follows, as they are
        return dropped ? out : nil
      }
      // Markers without a length (restart, end of image, TEM) do not belong before the scan.
      if marker == 0x01 || marker == 0xD8 || marker == 0xD9 || (0xD0...0xD7).contains(marker) {
        return nil
      }
      guard markerAt + 2 < bytes.count else { return nil }
      let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
      let end = markerAt + 1 + length
      guard length >= 2, end <= bytes.count else { return nil }
      if marker == app2, bytes[(markerAt + 3)..<end].starts(with: multiPicture) { return nil }
      if removed.contains(marker) {
        dropped = true
      } else {
        out.append(contentsOf: bytes[index..<end])
      }
      index = end
    }
  }

  private static let startOfScan: UInt8 = 0xDA
  private static let app2: UInt8 = 0xE2
  /// APP1 (EXIF, XMP), APP13 (IPTC), COM.
  private static let removed: Set<UInt8> = [0xE1, 0xED, 0xFE]
  /// The identifier of an APP2 multi-picture segment, `MPF\0`.
  private static let multiPicture: [UInt8] = [0x4D, 0x50, 0x46, 0x00]
}
