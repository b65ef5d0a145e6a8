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
    return ICCBytes.profile(
      space: "RGB ", pcs: "Lab ", name: "ThumbForge test two-intent RGB",
      tags: [
        (
          "wtpt",
          ICCBytes.text("XYZ ") + ICCBytes.u32(0) + ICCBytes.fixed(0.9642) + ICCBytes.fixed(1.0)
            + ICCBytes.fixed(0.8249)
        ),
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
    return MasterFileFormats.pdfDocument(objects)
  }

  // MARK: - ICC bytes

  private static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

  /// A `lut16Type` (`mft2`) of 3 inputs and 3 outputs: identity curves around a 2×2×2 grid
  /// of Lab colours in the 16-bit v2 encoding (L* 100 = 0xFF00, a* and b* 0 = 0x8000).
  private static func lut(_ corners: [(Double, Double, Double)]) -> [UInt8] {
    var bytes = ICCBytes.text("mft2") + ICCBytes.u32(0) + [3, 3, 2, 0]
    for row in 0..<3 { for column in 0..<3 { bytes += ICCBytes.fixed(row == column ? 1 : 0) } }
    bytes += u16(2) + u16(2)
    for _ in 0..<3 { bytes += u16(0) + u16(0xFFFF) }
    for (l, a, b) in corners {
      bytes += u16(Int((l / 100 * 0xFF00).rounded()))
      bytes += u16(Int(((a + 128) * 256).rounded())) + u16(Int(((b + 128) * 256).rounded()))
    }
    for _ in 0..<3 { bytes += u16(0) + u16(0xFFFF) }
    return bytes
  }
}
