/// A size in points; at scale `s` it is `round(points × s)` pixels.
package struct PointSize: Hashable, Sendable, Codable, CustomStringConvertible {
  package var width: Double
  package var height: Double

  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The pixel size at a display scale, rounding half away from zero, never below 1.
  package func pixels(scale: Int) -> PixelSize { pixels(scale: Double(scale)) }

  /// The pixel size at a scale that may be fractional (an Android density's 1.5), rounding
  /// half away from zero, never below 1.
  package func pixels(scale: Double) -> PixelSize {
    PixelSize(
      width: max(1, Geometry.saturatingInt((width * scale).rounded(.toNearestOrAwayFromZero))),
      height: max(1, Geometry.saturatingInt((height * scale).rounded(.toNearestOrAwayFromZero))))
  }

  /// `908.3 × 741.7 pt`: as people write sizes in messages.
  package var description: String {
    "\(Self.format(width)) × \(Self.format(height)) pt"
  }

  /// Whole numbers without decimals, others to one decimal (`908.3`); values beyond `Int`
  /// as `Double` writes them.
  static func format(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return String(value) }
    let tenths = (value * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 && value == value.rounded() {
      return String(Int(value))
    }
    let whole = Int(tenths) / 10
    let digit = abs(Int(tenths) % 10)
    return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(digit)"
  }
}
