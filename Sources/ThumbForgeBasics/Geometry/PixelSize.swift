/// A size in pixels.
package struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
  package var width: Int
  package var height: Int

  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Number of pixels.
  package var area: Int { width * height }

  package var description: String { "\(width)x\(height)" }
}
