/// A JPEG file's metadata, removed by rewriting the container: the entropy-coded data, the
/// tables, the JFIF and Adobe segments and the ICC profile (APP2) are kept byte for byte, so
/// the file decodes to exactly the pixels it had.
///
/// Removed: APP1 (EXIF — a phone's GPS position, the camera — and XMP), APP13 (Photoshop's
/// IPTC), COM (comments), and a multi-picture index (APP2 `MPF`) with the images it points
/// to after the first one's end (a phone's depth map or gain map). Callers check that the
/// result decodes to the same pixels before shipping it (``Renderer/withoutMetadata(_:)``).
///
/// ```swift
/// JPEGMetadata.stripped(bytes)  // nil: nothing to remove, or not a file this can walk
/// ```
enum JPEGMetadata {
  /// `bytes` without their metadata; nil when there is none, or when the segments cannot
  /// be walked (not a JPEG, a segment running past the end, no end of image).
  static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var out: [UInt8] = [0xFF, 0xD8]
    out.reserveCapacity(bytes.count)
    var index = 2
    var dropped = false
    var multiPictureDropped = false
    while true {
      guard index < bytes.count, bytes[index] == 0xFF else { return nil }
      var markerAt = index + 1
      while markerAt < bytes.count && bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
      guard markerAt < bytes.count else { return nil }
      let marker = bytes[markerAt]
      if marker == endOfImage {
        out += [0xFF, endOfImage]
        // What follows the end: a multi-picture file's other images (dropped with their
        // index), or anything else a tool appended (kept as it is).
        if !multiPictureDropped { out.append(contentsOf: bytes[(markerAt + 1)...]) }
        return dropped ? out : nil
      }
      // Markers without a length (restart, TEM, a second start) do not stand between segments.
      if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { return nil }
      guard markerAt + 2 < bytes.count else { return nil }
      let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
      var end = markerAt + 1 + length
      guard length >= 2, end <= bytes.count else { return nil }
      let isMultiPicture =
        marker == app2 && bytes[(markerAt + 3)..<end].starts(with: multiPicture)
      if marker == startOfScan {
        end = entropyEnd(bytes, from: end)  // the scan's data runs to the next marker
      }
      if removed.contains(marker) || isMultiPicture {
        dropped = true
        multiPictureDropped = multiPictureDropped || isMultiPicture
      } else {
        out.append(contentsOf: bytes[index..<end])
      }
      index = end
    }
  }

  /// Where the entropy-coded data starting at `start` ends: at the first `0xFF` that is
  /// neither a stuffed zero nor a restart marker (or at the end of the bytes).
  private static func entropyEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index + 1 < bytes.count {
      if bytes[index] == 0xFF {
        let next = bytes[index + 1]
        if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF { return index }
      }
      index += 1
    }
    return bytes.count
  }

  private static let startOfScan: UInt8 = 0xDA
  private static let endOfImage: UInt8 = 0xD9
  private static let app2: UInt8 = 0xE2
  /// APP1 (EXIF, XMP), APP13 (IPTC), COM.
  private static let removed: Set<UInt8> = [0xE1, 0xED, 0xFE]
  /// The identifier of an APP2 multi-picture segment, `MPF\0`.
  private static let multiPicture: [UInt8] = [0x4D, 0x50, 0x46, 0x00]
}
