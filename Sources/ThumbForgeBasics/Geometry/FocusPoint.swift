/// Where a picture's subject is, as fractions of the master's width and height from its
/// top-left corner (`[0.5, 0.5]` is the centre): crops of `fill`, `flag` and `tile` outputs
/// are placed around it, as far as the master allows.
package struct FocusPoint: Hashable, Sendable, Codable {
  /// 0…1 from the left edge.
  package var x: Double
  /// 0…1 from the top edge.
  package var y: Double

  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
