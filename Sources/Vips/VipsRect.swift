/// A rectangle of pixels, used to ask a resize for only part of its result.
package struct VipsRect: Sendable, Hashable {
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
