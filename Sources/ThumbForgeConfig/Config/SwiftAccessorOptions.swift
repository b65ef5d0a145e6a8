/// How the generated Swift accessors file is written (`swift-style`, `swift-access`,
/// `swift-enum`, `swift-bundle` in `thumbforge.yml`).
///
/// The defaults write the file as ThumbForge always has: public `String` constants in
/// `public enum Asset`, byte for byte.
package struct SwiftAccessorOptions: Sendable, Equatable, Hashable, Codable {
  /// What each image set becomes.
  package enum Style: String, Sendable, CaseIterable, Hashable, Codable {
    /// A `String` constant holding its lookup name: `UIImage(named: Asset.Flags.italy)`.
    case strings
    /// A SwiftGen-like `ImageAsset` with `name`, `size` (points), `image` (UIKit or AppKit)
    /// and `swiftUIImage`: `Asset.Flags.italy.image`, `Asset.Resorts.lesArcsTile.size`.
    case swiftgen
  }

  /// The access level of every generated declaration.
  package enum Access: String, Sendable, CaseIterable, Hashable, Codable {
    case `public`, `internal`
  }

  /// The bundle `ImageAsset` loads images from when none is passed (`swiftgen` style).
  package enum BundleChoice: String, Sendable, CaseIterable, Hashable, Codable {
    /// `Bundle.module` in a Swift package (`SWIFT_PACKAGE`), else the bundle holding the
    /// generated code (SwiftGen's `BundleToken`).
    case auto
    /// `Bundle.main`: the app's own catalog.
    case main
    /// `Bundle.module`: a Swift package target's resources.
    case module
  }

  package var style: Style = .strings
  package var access: Access = .public
  /// The outermost enum's name (made an UpperCamelCase identifier).
  package var enumName = "Asset"
  package var bundle: BundleChoice = .auto

  package init() {}
}
