/// A rectangle in pixels (a crop).
package struct PixelRect: Hashable, Sendable, Codable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}
