/// The one place where pixel dimensions and counts, kept as `Int` everywhere above, become
/// the 32-bit integers of libvips and ThumbForge's C code: a value that does not fit is a
/// named error, never a trap.
package enum PixelCount {
  /// libvips' largest image side (`VIPS_MAX_COORD`): every width, height and offset of an
  /// image libvips makes, even one computed only in part, must stay at or under it.
  package static let maxSide = 10_000_000

  /// `value` as a C `int`, or a ``VipsError`` naming `what` when it is outside
  /// `Int32`'s range.
  @inline(__always)
  static func int32(_ value: Int, _ what: @autoclosure () -> String) throws(VipsError) -> Int32 {
    guard let narrow = Int32(exactly: value) else {
      throw VipsError(
        context: what(), message: "\(value) does not fit in a 32-bit integer (largest 2147483647)")
    }
    return narrow
  }

  /// `value`, rounded to the nearest integer, as a C `int`, or a ``VipsError`` naming `what`
  /// when it is not finite or outside `Int32`'s range.
  static func int32(rounding value: Double, _ what: @autoclosure () -> String) throws(VipsError)
    -> Int32
  {
    guard value.isFinite, let narrow = Int32(exactly: value.rounded()) else {
      throw VipsError(context: what(), message: "\(value) is not a 32-bit integer")
    }
    return narrow
  }

  /// Refuses `image` (loaded, not yet decoded) when it has more than `limit` pixels
  /// (`limit-input-pixels`), from its header, naming `path`.
  package static func checkInput(_ image: VipsImage, limit: Int, path: String) throws(VipsError) {
    let (pixels, overflow) = image.width.multipliedReportingOverflow(by: image.height)
    guard overflow || pixels > limit else { return }
    throw VipsError(
      context: path,
      message:
        "image is \(image.width)x\(image.height), over the limit of \(limit) pixels (limit-input-pixels)",
      isOverLimit: true)
  }

  /// Checks that an image of `width` × `height` can exist in libvips: both sides between 1
  /// and ``maxSide``.
  static func checkSides(_ width: Int, _ height: Int, _ what: @autoclosure () -> String)
    throws(VipsError)
  {
    guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
      throw VipsError(
        context: what(),
        message:
          "a \(width)x\(height) image is outside libvips' limits (each side 1 to \(maxSide) pixels)"
      )
    }
  }
}
