internal import Foundation

/// A ThumbHash: an image's rough shape, colours, alpha and aspect ratio in about 25 bytes,
/// which an app decodes into a blurred stand-in while the image loads (Evan Wallace's
/// format, <https://evanw.github.io/thumbhash/>).
///
/// The bytes follow the format's reference encoder exactly (the same coefficients, the same
/// rounding half up), so any of its decoders reads them. The input is at most 100 pixels a
/// side; ``encode(width:height:rgba:)`` refuses more.
package enum ThumbHash {
  /// The largest side the encoder takes, as the format asks.
  package static let maxSide = 100

  /// The hash of an image of `width` × `height` pixels, `rgba` 8-bit RGBA rows (not
  /// premultiplied).
  package static func encode(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
    precondition(
      (1...maxSide).contains(width) && (1...maxSide).contains(height)
        && rgba.count == width * height * 4,
      "ThumbHash takes 1 to 100 pixels a side, 4 bytes a pixel")
    let (l, p, q, a, hasAlpha) = channels(width: width, height: height, rgba: rgba)
    let limit = hasAlpha ? 5.0 : 7.0
    let longer = Double(max(width, height))
    let lx = max(1, roundHalfUp(limit * Double(width) / longer))
    let ly = max(1, roundHalfUp(limit * Double(height) / longer))
    let plane = Plane(width: width, height: height)
    let lChannel = plane.encode(l, nx: max(3, lx), ny: max(3, ly))
    let pChannel = plane.encode(p, nx: 3, ny: 3)
    let qChannel = plane.encode(q, nx: 3, ny: 3)
    let aChannel = hasAlpha ? plane.encode(a, nx: 5, ny: 5) : nil

    let isLandscape = width > height
    let header24 =
      roundHalfUp(63 * lChannel.dc) | (roundHalfUp(31.5 + 31.5 * pChannel.dc) << 6)
      | (roundHalfUp(31.5 + 31.5 * qChannel.dc) << 12) | (roundHalfUp(31 * lChannel.scale) << 18)
      | ((hasAlpha ? 1 : 0) << 23)
    let header16 =
      (isLandscape ? ly : lx) | (roundHalfUp(63 * pChannel.scale) << 3)
      | (roundHalfUp(63 * qChannel.scale) << 9) | ((isLandscape ? 1 : 0) << 15)
    var hash: [UInt8] = [
      UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
      UInt8(header16 & 255), UInt8(header16 >> 8),
    ]
    if let aChannel {
      hash.append(UInt8(roundHalfUp(15 * aChannel.dc) | (roundHalfUp(15 * aChannel.scale) << 4)))
    }
    // The AC coefficients, 4 bits each, two to a byte (low nibble first).
    let start = hash.count
    var index = 0
    for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
      for coefficient in channel.ac {
        if index / 2 + start >= hash.count { hash.append(0) }
        hash[start + index / 2] |= UInt8(roundHalfUp(15 * coefficient) << ((index & 1) * 4))
        index += 1
      }
    }
    return hash
  }

  /// The image as luminance, two colour differences and alpha, 0–1, with transparent pixels
  /// blended towards the alpha-weighted average colour; and whether any pixel is not opaque.
  private static func channels(width: Int, height: Int, rgba: [UInt8]) -> (
    l: [Double], p: [Double], q: [Double], a: [Double], hasAlpha: Bool
  ) {
    let count = width * height
    // The average colour, weighted by alpha.
    var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
    for i in 0..<count {
      let alpha = Double(rgba[i * 4 + 3]) / 255
      average.r += alpha / 255 * Double(rgba[i * 4])
      average.g += alpha / 255 * Double(rgba[i * 4 + 1])
      average.b += alpha / 255 * Double(rgba[i * 4 + 2])
      average.a += alpha
    }
    if average.a > 0 {
      average.r /= average.a
      average.g /= average.a
      average.b /= average.a
    }
    let hasAlpha = average.a < Double(count)

    // Luminance, two colour differences and alpha, transparent pixels blended to the average.
    var l = [Double](repeating: 0, count: count)
    var p = l
    var q = l
    var a = l
    for i in 0..<count {
      let alpha = Double(rgba[i * 4 + 3]) / 255
      let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
      let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
      let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
      l[i] = (r + g + b) / 3
      p[i] = (r + g) / 2 - b
      q[i] = r - g
      a[i] = alpha
    }
    return (l, p, q, a, hasAlpha)
  }

  /// JavaScript's `Math.round`, which the reference encoder uses: halves round up.
  private static func roundHalfUp(_ value: Double) -> Int {
    Int((value + 0.5).rounded(.down))
  }

  /// The cosine transform of one channel over the image.
  private struct Plane {
    let width: Int
    let height: Int

    /// The channel's DC term, its AC terms in the format's triangular order mapped to 0–1,
    /// and the scale they were divided by.
    func encode(_ channel: [Double], nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double)
    {
      var dc = 0.0
      var ac: [Double] = []
      var scale = 0.0
      var fx = [Double](repeating: 0, count: width)
      for cy in 0..<ny {
        var cx = 0
        while cx * ny < nx * (ny - cy) {
          for x in 0..<width {
            fx[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5))
          }
          var f = 0.0
          for y in 0..<height {
            let fy = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
            for x in 0..<width { f += channel[x + y * width] * fx[x] * fy }
          }
          f /= Double(width * height)
          if cx > 0 || cy > 0 {
            ac.append(f)
            scale = max(scale, abs(f))
          } else {
            dc = f
          }
          cx += 1
        }
      }
      if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
      return (dc, ac, scale)
    }
  }
}
