package import Vips

/// A 64-bit average hash ("aHash") of an image: shrink to 8×8 grey, then one bit per
/// pixel, set when the pixel is brighter than the mean.
///
/// Similar-looking images have hashes a small ``distance(to:)`` apart, whatever their
/// size or encoding; a distance above about 10 of 64 means different pictures.
package struct PerceptualHash: Sendable, Hashable, CustomStringConvertible {
  /// The 64 bits, row by row from the top-left pixel (most significant bit first).
  package let bits: UInt64

  /// A hash with known bits (for example one stored by an earlier run).
  package init(bits: UInt64) {
    self.bits = bits
  }

  /// Hashes an image; alpha is flattened onto white first.
  package init(_ image: VipsImage) throws(VipsError) {
    var rgb = try image.toSRGB8()
    if rgb.hasAlpha {
      rgb = try rgb.flattened(background: [255, 255, 255])
    }
    let small = try rgb.resize(width: 8, height: 8)
    let bytes = try small.pixelBytes()
    let bands = small.bands
    // Integer luma (×1000) and an exact mean comparison, so flat areas never set bits
    // through rounding.
    var luma: [Int] = []
    for index in 0..<64 {
      let base = index * bands
      if bands >= 3 {
        let red: Int = 299 * Int(bytes[base])
        let green: Int = 587 * Int(bytes[base + 1])
        let blue: Int = 114 * Int(bytes[base + 2])
        luma.append(red + green + blue)
      } else {
        luma.append(1000 * Int(bytes[base]))
      }
    }
    let sum = luma.reduce(0, +)
    var bits: UInt64 = 0
    for value in luma {
      bits = (bits << 1) | (value * 64 > sum ? 1 : 0)
    }
    self.bits = bits
  }

  /// The Hamming distance: how many of the 64 bits differ (0 = same look).
  package func distance(to other: PerceptualHash) -> Int {
    (bits ^ other.bits).nonzeroBitCount
  }

  /// The bits as 16 hexadecimal digits.
  package var description: String {
    let hex = String(bits, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
