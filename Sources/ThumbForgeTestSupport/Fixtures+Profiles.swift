package import Foundation
package import Vips

/// Wide-gamut test masters: images tagged with Display P3 (libvips' built-in profile) or
/// with a ProPhoto RGB or Adobe RGB profile made here, for `display-gamut` and fidelity tests.
extension Fixtures {
  /// `image` (8-bit sRGB) converted to Display P3, carrying libvips' P3 profile: what a
  /// designer's Display P3 PNG holds.
  package static func displayP3(_ image: VipsImage) throws -> VipsImage {
    try image.iccTransformed(to: "p3")
  }

  /// `image` (8-bit sRGB) converted to ProPhoto RGB at `depth` bits, carrying
  /// ``proPhotoProfile()`` (written to `folder`, which libvips reads it from).
  package static func proPhoto(_ image: VipsImage, depth: Int = 16, folder: URL) throws -> VipsImage
  {
    let url = folder.appendingPathComponent("ProPhoto.icc")
    try Data(proPhotoProfile()).write(to: url)
    return try image.iccTransformed(to: url.path, depth: depth)
  }

  /// A minimal ICC v2 matrix/TRC display profile of ProPhoto RGB (ROMM RGB): its D50
  /// primaries and a gamma of 1.8. Made byte by byte (no library writes ICC profiles), with
  /// exactly the tags lcms needs: description, white point, colourants and tone curves.
  package static func proPhotoProfile() -> [UInt8] {
    matrixProfile(
      "ThumbForge test ProPhoto RGB", gamma: 1.8,
      colourants: [(0.7977, 0.2880, 0.0), (0.1352, 0.7119, 0.0), (0.0313, 0.0001, 0.8249)])
  }

  /// A minimal ICC v2 matrix/TRC display profile of Adobe RGB (1998): its primaries and D65
  /// white chromatically adapted to the D50 connection space (Bradford, the colourants of
  /// Adobe's own profile; the white point tag is D50 as ICC v4 requires and lcms reads it),
  /// and the tone curve of gamma 563/256 (≈ 2.2) that the specification defines.
  package static func adobeRGBProfile() -> [UInt8] {
    matrixProfile(
      "ThumbForge test Adobe RGB (1998)", gamma: 563.0 / 256,
      colourants: [(0.6097, 0.3111, 0.0195), (0.2053, 0.6257, 0.0609), (0.1492, 0.0632, 0.7446)])
  }

  /// A matrix/TRC RGB profile: D50 white, the red, green and blue colourants (XYZ, D50) and
  /// one gamma curve for the three channels.
  private static func matrixProfile(
    _ name: String, gamma: Double, colourants: [(Double, Double, Double)]
  ) -> [UInt8] {
    let curve = ICCBytes.curve(gamma: gamma)
    let (red, green, blue) = (colourants[0], colourants[1], colourants[2])
    return ICCBytes.profile(
      space: "RGB ", name: name,
      tags: [
        ("wtpt", ICCBytes.xyz(0.9642, 1.0, 0.8249)),
        ("rXYZ", ICCBytes.xyz(red.0, red.1, red.2)),
        ("gXYZ", ICCBytes.xyz(green.0, green.1, green.2)),
        ("bXYZ", ICCBytes.xyz(blue.0, blue.1, blue.2)),
        ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
      ])
  }

  /// A minimal ICC v2 grey display profile (gamma 2.2, D50 white), as a grey PNG from a
  /// design tool or scanner carries.
  package static func greyProfile() -> [UInt8] {
    ICCBytes.profile(
      space: "GRAY", name: "ThumbForge test grey gamma 2.2",
      tags: [
        ("wtpt", ICCBytes.xyz(0.9642, 1.0, 0.8249)), ("kTRC", ICCBytes.curve(gamma: 2.2)),
      ])
  }
}

/// The byte layout of ICC v2 display profiles (big-endian, tags 4-byte aligned).
enum ICCBytes {
  static func u32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) }
  }
  static func text(_ value: String) -> [UInt8] { Array(value.utf8) }
  static func fixed(_ value: Double) -> [UInt8] {
    u32(Int((value * 65536).rounded()) & 0xFFFF_FFFF)
  }
  static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
    text("XYZ ") + u32(0) + fixed(x) + fixed(y) + fixed(z)
  }
  /// A `curv` tag of one gamma (u8Fixed8).
  static func curve(gamma: Double) -> [UInt8] {
    let value = Int((gamma * 256).rounded())
    return text("curv") + u32(0) + u32(1) + [UInt8(value >> 8), UInt8(value & 0xFF)] + [0, 0]
  }

  /// A display-class profile of colour `space` (PCS `pcs`: XYZ, or Lab for lookup tables)
  /// with a description, a copyright and `tags`.
  static func profile(
    space: String, pcs: String = "XYZ ", name: String, tags extra: [(String, [UInt8])]
  ) -> [UInt8] {
    let description =
      text("desc") + u32(0) + u32(name.utf8.count + 1) + text(name) + [0]
      + u32(0) + u32(0) + [0, 0, 0] + [UInt8](repeating: 0, count: 67)
    let tags =
      [
        ("desc", description),
        ("cprt", text("text") + u32(0) + text("No copyright, test data") + [0]),
      ]
      + extra
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
    header += text("mntr") + text(space) + text(pcs)
    header += [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]  // 2026-01-01 00:00:00
    header += text("acsp") + [UInt8](repeating: 0, count: 28)  // platform … intent
    header += fixed(0.9642) + fixed(1.0) + fixed(0.8249)  // the PCS illuminant, D50
    header += [UInt8](repeating: 0, count: 48)  // creator, profile ID, reserved
    return header + table + data
  }
}
