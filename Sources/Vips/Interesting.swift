/// Where a smart crop looks (libvips' `VipsInteresting`).
package enum Interesting: String, Sendable, CaseIterable {
  case none, centre, entropy, attention, low, high, all
}
