/// The shape of a rounded corner.
package enum CornerStyle: String, Sendable, Codable, CaseIterable, Hashable {
  /// A quarter circle (SwiftUI `.circular`).
  case circular
  /// The smoother, squircle-like curve of SwiftUI's `.continuous`.
  case continuous
}
