/// Metadata put into clean JPEG and PNG files the way cameras, phones and editors write it,
/// for tests of what a build strips: EXIF (with an orientation and a GPS tag), XMP, IPTC and
/// a comment in a JPEG; text, international text (XMP), EXIF and time chunks in a PNG.
package enum FileMetadata {
  /// `jpeg` with APP1 EXIF (orientation `orientation`), APP1 XMP, APP13 IPTC and a COM
  /// segment after its first segment (libvips writes JFIF's APP0 first).
  package static func jpeg(_ jpeg: [UInt8], orientation: Int = 1) -> [UInt8] {
    precondition(jpeg.count > 6 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
    // After SOI, and after APP0 when it comes first.
    var at = 2
    if jpeg[3] == 0xE0 { at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) }
    let segments =
      segment(0xE1, Array("Exif\0\0".utf8) + exif(orientation: orientation))
      + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8))
      + segment(0xED, iptc) + segment(0xFE, Array("shot on a test phone".utf8))
    return Array(jpeg[..<at]) + segments + Array(jpeg[at...])
  }

  /// `png` with `tEXt`, `iTXt` (an XMP packet), `eXIf` and `tIME` chunks after `IHDR`.
  package static func png(_ png: [UInt8]) -> [UInt8] {
    precondition(png.starts(with: PNGEncoder.signature), "not a PNG")
    let at = 8 + 25  // the signature and IHDR
    let chunks =
      PNGEncoder.chunk("tEXt", Array("Comment\0made by a test".utf8))
      + PNGEncoder.chunk(
        "iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0".utf8) + Array(xmp.utf8))
      + PNGEncoder.chunk("eXIf", exif(orientation: 1))
      + PNGEncoder.chunk("tIME", [0x07, 0xEA, 12, 1, 12, 0, 0])
    return Array(png[..<at]) + chunks + Array(png[at...])
  }

  /// A big-endian TIFF block: an orientation tag and a GPS IFD pointer with a latitude ref.
  static func exif(orientation: Int) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }
    // Header (8) + IFD0: count (2), two entries (24), next (4) = 38; GPS IFD at 38.
    return Array("MM".utf8) + u16(42) + u32(8) + u16(2)
      + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
      + u16(0x8825) + u16(4) + u32(1) + u32(38) + u32(0)
      + u16(1) + u16(0x0001) + u16(2) + u32(2) + Array("N\0".utf8) + [0, 0] + u32(0)
  }

  static let xmp = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
    <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Test"/></rdf:RDF></x:xmpmeta>
    """

  /// Photoshop's image resource block with one IPTC record (a by-line).
  static let iptc: [UInt8] =
    Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 9]
    + [0x1C, 0x02, 0x50, 0x00, 0x04] + Array("Test".utf8) + [0]

  private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }
}
