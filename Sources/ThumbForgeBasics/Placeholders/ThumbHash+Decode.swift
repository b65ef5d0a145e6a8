internal import Foundation

extension ThumbHash {
  /// The picture a hash stands for, as the format's reference decoder makes it: at most 32
  /// pixels a side in the hash's aspect ratio, 8-bit RGBA rows (not premultiplied). Nil for
  /// bytes too short to be a hash. Used for the contact sheet's placeholder tiles.
  package static func decode(_ hash: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
    guard hash.count >= 5 else { return nil }
    let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
    let header16 = Int(hash[3]) | Int(hash[4]) << 8
    let hasAlpha = header24 >> 23 != 0
    guard !hasAlpha || hash.count >= 6 else { return nil }
    let isLandscape = header16 >> 15 != 0
    let longCount = hasAlpha ? 5 : 7
    let shortCount = header16 & 7
    let lx = max(3, isLandscape ? longCount : shortCount)
    let ly = max(3, isLandscape ? shortCount : longCount)
    var reader = Coefficients(hash: hash, start: hasAlpha ? 6 : 5)
    let l = reader.channel(nx: lx, ny: ly, scale: Double((header24 >> 18) & 31) / 31)
    let p = reader.channel(nx: 3, ny: 3, scale: Double((header16 >> 3) & 63) / 63 * 1.25)
    let q = reader.channel(nx: 3, ny: 3, scale: Double((header16 >> 9) & 63) / 63 * 1.25)
    let a = hasAlpha ? reader.channel(nx: 5, ny: 5, scale: Double(hash[5] >> 4) / 15) : nil
    guard let l, let p, let q, !hasAlpha || a != nil else { return nil }
    let dc = (
      l: Double(header24 & 63) / 63, p: Double((header24 >> 6) & 63) / 31.5 - 1,
      q: Double((header24 >> 12) & 63) / 31.5 - 1,
      a: hasAlpha ? Double(hash[5] & 15) / 15 : 1
    )
    // The reference's size: the stored counts (before the minimum of 3) give the ratio.
    let ratio =
      Double(isLandscape ? longCount : shortCount) / Double(isLandscape ? shortCount : longCount)
    guard ratio.isFinite, ratio > 0 else { return nil }
    let width = max(1, Int((ratio > 1 ? 32 : 32 * ratio).rounded()))
    let height = max(1, Int((ratio > 1 ? 32 / ratio : 32).rounded()))
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      let fy = (0..<max(ly, hasAlpha ? 5 : 3)).map {
        cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double($0))
      }
      for x in 0..<width {
        let fx = (0..<max(lx, hasAlpha ? 5 : 3)).map {
          cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double($0))
        }
        let lum = dc.l + sum(l, nx: lx, ny: ly, fx: fx, fy: fy)
        let pValue = dc.p + sum(p, nx: 3, ny: 3, fx: fx, fy: fy)
        let qValue = dc.q + sum(q, nx: 3, ny: 3, fx: fx, fy: fy)
        let alpha = dc.a + (a.map { sum($0, nx: 5, ny: 5, fx: fx, fy: fy) } ?? 0)
        let b = lum - 2.0 / 3.0 * pValue
        let r = (3 * lum - b + qValue) / 2
        let g = r - qValue
        let i = (y * width + x) * 4
        for (offset, value) in [r, g, b, alpha].enumerated() {
          // Truncated, as the reference stores into a byte array.
          rgba[i + offset] = UInt8(max(0, 255 * min(1, value)))
        }
      }
    }
    return (width, height, rgba)
  }

  /// One channel's AC terms at a pixel, in the format's triangular order.
  private static func sum(_ ac: [Double], nx: Int, ny: Int, fx: [Double], fy: [Double]) -> Double {
    var total = 0.0
    var j = 0
    for cy in 0..<ny {
      var cx = cy > 0 ? 0 : 1
      while cx * ny < nx * (ny - cy) {
        total += ac[j] * fx[cx] * fy[cy] * 2
        cx += 1
        j += 1
      }
    }
    return total
  }

  /// Reads the 4-bit AC coefficients in order.
  private struct Coefficients {
    let hash: [UInt8]
    let start: Int
    var index = 0

    init(hash: [UInt8], start: Int) {
      self.hash = hash
      self.start = start
    }

    /// One channel's AC terms, each mapped back to −scale … scale; nil when the hash ends.
    mutating func channel(nx: Int, ny: Int, scale: Double) -> [Double]? {
      var ac: [Double] = []
      for cy in 0..<ny {
        var cx = cy > 0 ? 0 : 1
        while cx * ny < nx * (ny - cy) {
          let byte = start + index / 2
          guard byte < hash.count else { return nil }
          let nibble = (Int(hash[byte]) >> ((index & 1) * 4)) & 15
          ac.append((Double(nibble) / 7.5 - 1) * scale)
          index += 1
          cx += 1
        }
      }
      return ac
    }
  }
}
