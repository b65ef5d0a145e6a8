/// A size in points; at scale `s` it is `round(points × s)` pixels.
public struct PointSize: Hashable, Sendable, Codable, CustomStringConvertible {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The pixel size at a display scale, rounding half away from zero, never below 1.
  public func pixels(scale: Int) -> PixelSize {
    PixelSize(
      width: max(1, Int((width * Double(scale)).rounded(.toNearestOrAwayFromZero))),
      height: max(1, Int((height * Double(scale)).rounded(.toNearestOrAwayFromZero))))
  }

  public var description: String {
    "\(Self.format(width))x\(Self.format(height)) pt"
  }

  static func format(_ value: Double) -> String {
    // Whole numbers without `.0`; others (and those beyond `Int`) as `Double` writes them.
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
