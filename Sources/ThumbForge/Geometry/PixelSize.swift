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
