/// A platform an app icon set has slots for.
package enum IconPlatform: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
  /// iPhone and iPad (and the App Store's 1024×1024 icon): opaque, as the App Store requires.
  case ios
  /// The Mac's 16–512 pt icons at 1x and 2x: alpha kept (Mac icons have their own shape).
  case macos

  package static func < (a: IconPlatform, b: IconPlatform) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
