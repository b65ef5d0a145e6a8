/// A size in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Number of pixels.
  public var area: Int { width * height }

  public var description: String { "\(width)x\(height)" }
}

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
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

/// A rectangle in pixels (a crop).
public struct PixelRect: Hashable, Sendable, Codable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}
