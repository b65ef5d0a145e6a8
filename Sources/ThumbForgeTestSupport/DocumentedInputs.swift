/// Generated inputs for the tests of what the README promises each kind of input gets
/// (`DocumentedInputTests`): an RGB profile whose perceptual and colorimetric intents
/// differ, and a PDF of two pages.
package enum DocumentedInputs {
  /// An ICC v2 RGB display profile (PCS Lab) made of two 2×2×2 lookup tables: its
  /// colorimetric table (`A2B1`) maps the cube's corners to the Lab colours of sRGB's
  /// primaries and secondaries, its perceptual table (`A2B0`) to the same with a* and b*
  /// halved. A master tagged with it comes out otherwise with each intent: libvips' own
  /// profiles are matrix profiles, the same in every intent but absolute.
  package static func twoIntentProfile() -> [UInt8] {
    // The corners in table order (red varies slowest): L*, a*, b*.
    let corners: [(Double, Double, Double)] = [
      (0, 0, 0), (32.3, 79.2, -107.9), (87.7, -86.2, 83.2), (91.1, -48.1, -14.1),
      (53.2, 80.1, 67.2), (60.3, 98.2, -60.8), (97.1, -21.6, 94.5), (100, 0, 0),
    ]
    return profile(tags: [
      ("wtpt", text("XYZ ") + u32(0) + fixed(0.9642) + fixed(1.0) + fixed(0.8249)),
      ("A2B0", lut(corners.map { ($0.0, $0.1 / 2, $0.2 / 2) })),
      ("A2B1", lut(corners)),
    ])
  }

  /// A PDF of two `width`×`height` pt pages, each filled with one colour (RGB components
  /// 0–1): the first page `first`, the second `second`.
  package static func twoPagePDF(width: Int, height: Int, first: String, second: String)
    -> [UInt8]
  {
    let contents = [first, second].map { "\($0) rg 0 0 \(width) \(height) re f\n" }
    let objects =
      [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents 5 0 R >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents 6 0 R >>",
      ] + contents.map { "<< /Length \($0.utf8.count) >>\nstream\n\($0)endstream" }
    var text = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (index, object) in objects.enumerated() {
      offsets.append(text.utf8.count)
      text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = text.utf8.count
    text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets {
      let digits = String(offset)
      text += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
    }
    text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return Array(text.utf8)
  }

  // MARK: - ICC bytes

  private static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
  private static func u32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) }
  }
  private static func text(_ value: String) -> [UInt8] { Array(value.utf8) }
  private static func fixed(_ value: Double) -> [UInt8] {
    u32(Int((value * 65536).rounded()) & 0xFFFF_FFFF)
  }

  /// A `lut16Type` (`mft2`) of 3 inputs and 3 outputs: identity curves around a 2×2×2 grid
  /// of Lab colours in the 16-bit v2 encoding (L* 100 = 0xFF00, a* and b* 0 = 0x8000).
  private static func lut(_ corners: [(Double, Double, Double)]) -> [UInt8] {
    var bytes = text("mft2") + u32(0) + [3, 3, 2, 0]
    for row in 0..<3 { for column in 0..<3 { bytes += fixed(row == column ? 1 : 0) } }
    bytes += u16(2) + u16(2)
    for _ in 0..<3 { bytes += u16(0) + u16(0xFFFF) }
    for (l, a, b) in corners {
      bytes += u16(Int((l / 100 * 0xFF00).rounded()))
      bytes += u16(Int(((a + 128) * 256).rounded())) + u16(Int(((b + 128) * 256).rounded()))
    }
    for _ in 0..<3 { bytes += u16(0) + u16(0xFFFF) }
    return bytes
  }

  /// A display-class RGB profile with PCS Lab, a description, a copyright and `tags`.
  private static func profile(tags extra: [(String, [UInt8])]) -> [UInt8] {
    let name = "ThumbForge test two-intent RGB"
    let description =
      text("desc") + u32(0) + u32(name.utf8.count + 1) + text(name) + [0]
      + u32(0) + u32(0) + [0, 0, 0] + [UInt8](repeating: 0, count: 67)
    let tags =
      [
        ("desc", description),
        ("cprt", text("text") + u32(0) + text("No copyright, test data") + [0]),
      ] + extra
    var table: [UInt8] = u32(tags.count)
    var data: [UInt8] = []
    var offset = 128 + 4 + 12 * tags.count
    for (signature, bytes) in tags {
      var padded = bytes
      while padded.count % 4 != 0 { padded.append(0) }
      table += text(signature) + u32(offset) + u32(bytes.count)
      data += padded
      offset += padded.count
    }
    var header: [UInt8] = u32(offset) + u32(0) + [0x02, 0x10, 0, 0]
    header += text("mntr") + text("RGB ") + text("Lab ")
    header += [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]  // 2026-01-01 00:00:00
    header += text("acsp") + [UInt8](repeating: 0, count: 28)  // platform … intent
    header += fixed(0.9642) + fixed(1.0) + fixed(0.8249)  // the PCS illuminant, D50
    header += [UInt8](repeating: 0, count: 48)  // creator, profile ID, reserved
    return header + table + data
  }
}
