/// Which slots an app icon set (`kind: appicon`) fills for iOS.
package enum IconLayout: String, Sendable, Codable, CaseIterable, Hashable {
  /// Xcode 15+'s "Single Size": one 1024×1024 universal iOS icon, with dark and tinted
  /// appearances from `Name~dark` and `Name~tinted` masters (Xcode 16, iOS 18).
  case single
  /// Every iPhone, iPad and App Store size, as Xcode 13 and earlier ask for them (no
  /// appearances).
  case perSize = "per-size"
}
