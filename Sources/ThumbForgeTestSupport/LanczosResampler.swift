internal import Foundation
internal import Vips

/// A textbook separable Lanczos-3 resampler for the fidelity reference's enlargements:
/// libvips' `resize` enlarges with a bicubic interpolator whatever kernel it is given, so it
/// cannot be the reference of a Lanczos-3 enlargement. Each output pixel's centre maps to
/// source position (i + ½) / scale − ½; taps within 3 (3 / scale when shrinking an axis)
/// are weighted by sinc(x) sinc(x / 3), normalised, with edge pixels repeated. Alpha is
/// premultiplied around it; values are kept in `Double` and rounded once at the end.
enum LanczosResampler {
  /// `image` (8-bit, 3 or 4 bands) resized to `width` × `height`.
  static func resize(_ image: VipsImage, width: Int, height: Int) throws -> VipsImage {
    let bands = image.bands
    let alpha = image.hasAlpha
    let bytes = try image.copiedToMemory().pixelBytes()
    var values = bytes.map(Double.init)
    if alpha {
      for pixel in stride(from: 0, to: values.count, by: bands) {
        for band in 0..<(bands - 1) { values[pixel + band] *= values[pixel + bands - 1] / 255 }
      }
    }
    let across = pass(
      values, lines: image.height, length: image.width, to: width, bands: bands,
      horizontal: true)
    let down = pass(
      across, lines: width, length: image.height, to: height, bands: bands, horizontal: false)
    var out = [UInt8](repeating: 0, count: down.count)
    for pixel in stride(from: 0, to: down.count, by: bands) {
      let a = alpha ? min(255, max(0, down[pixel + bands - 1])) : 255
      for band in 0..<bands {
        var value = down[pixel + band]
        if alpha { value = band == bands - 1 ? a : (a > 0 ? value * 255 / a : 0) }
        out[pixel + band] = UInt8(min(255, max(0, value.rounded())))
      }
    }
    return try VipsImage.pixels(out, width: width, height: height, bands: bands)
  }

  /// Resamples the rows (`horizontal`) or the columns of a row-major image of `bands`
  /// interleaved bands: `lines` lines of `length` pixels each become `target` pixels long.
  static func pass(
    _ input: [Double], lines: Int, length: Int, to target: Int, bands: Int, horizontal: Bool
  ) -> [Double] {
    let taps = Taps(from: length, to: target)
    var output = [Double](repeating: 0, count: lines * target * bands)
    // Where pixel `position` of line `line` is, in the input and in the output.
    let (step, lineStep) = horizontal ? (bands, length * bands) : (lines * bands, bands)
    let (outSample, outLine) = horizontal ? (bands, target * bands) : (lines * bands, bands)
    input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { result in
        taps.indices.withUnsafeBufferPointer { indices in
          taps.weights.withUnsafeBufferPointer { weights in
            for line in 0..<lines {
              for index in 0..<target {
                let base = line * outLine + index * outSample
                for tap in (index * taps.width)..<((index + 1) * taps.width) {
                  let from = line * lineStep + indices[tap] * step
                  let weight = weights[tap]
                  for band in 0..<bands { result[base + band] += weight * source[from + band] }
                }
              }
            }
          }
        }
      }
    }
    return output
  }

  /// Each output position's `width` source indices (edge-clamped) and normalised weights,
  /// flat: position i's are at i × width ..< (i + 1) × width (unused taps weigh 0).
  struct Taps {
    var width = 0
    var indices: [Int] = []
    var weights: [Double] = []

    init(from length: Int, to target: Int) {
      let scale = Double(target) / Double(length)
      let stretch = min(1, scale)
      let support = 3 / stretch
      width = Int((2 * support).rounded(.up)) + 1
      for index in 0..<target {
        let centre = (Double(index) + 0.5) / scale - 0.5
        let first = Int((centre - support).rounded(.up))
        let raw = (0..<width).map { tap in
          lanczos3((Double(first + tap) - centre) * stretch)
        }
        let total = raw.reduce(0, +)
        indices += (0..<width).map { min(length - 1, max(0, first + $0)) }
        weights += raw.map { $0 / total }
      }
    }
  }

  static func lanczos3(_ x: Double) -> Double {
    if x == 0 { return 1 }
    if abs(x) >= 3 { return 0 }
    return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
  }
}
