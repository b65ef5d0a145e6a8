/// Where a border stroke sits relative to the shape's edge.
package enum StrokeAlignment: String, Sendable, Codable, CaseIterable, Hashable {
  /// Entirely inside the rounded rectangle (SwiftUI `strokeBorder`).
  case inside
  /// Centred on the edge (SwiftUI `.stroke`); the canvas grows by half the width per side.
  case center
}
