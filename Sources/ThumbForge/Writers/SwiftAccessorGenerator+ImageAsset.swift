internal import ThumbForgeConfig

extension SwiftAccessorGenerator {
  /// The `swiftgen` style's imports: each UI framework only where it exists, so the file
  /// compiles on every platform (on Linux, only its Foundation parts).
  static let platformImports = [
    "#if canImport(UIKit)", "  import UIKit", "#elseif canImport(AppKit)", "  import AppKit",
    "#endif", "#if canImport(SwiftUI)", "  import SwiftUI", "#endif",
  ]

  /// The `swiftgen` style's `ImageAsset`: an image set's lookup name and point size, its
  /// image from UIKit or AppKit (`image`, `image(in:)`), and its SwiftUI image
  /// (`swiftUIImage`, `swiftUIImage(in:)`); `bundle` is the bundle loaded from by default.
  ///
  /// Like SwiftGen's, `image` stops the program when the catalog lacks the image set: the
  /// generated file and the catalog come from one build, so that is a build mistake.
  static func imageAssetType(_ options: SwiftAccessorOptions, placeholders: Bool = false)
    -> [String]
  {
    let access = options.access.rawValue
    var lines = imageAssetProperties(access: access, bundle: defaultBundle(options.bundle))
    if placeholders { lines += placeholderProperties(access: access) }
    lines += platformImageAccessors(access: access)
    lines += swiftUIImageAccessors(access: access)
    lines.append("}")
    if options.bundle == .auto {
      lines += [
        "", "/// Finds the bundle of the generated code.", "private final class BundleToken {}",
      ]
    }
    return lines
  }

  /// The body of `ImageAsset.bundle`: the chosen bundle, or for `auto`, `Bundle.module` in a
  /// Swift package and the generated code's own bundle elsewhere.
  private static func defaultBundle(_ choice: SwiftAccessorOptions.BundleChoice) -> [String] {
    switch choice {
    case .main: ["    Bundle.main"]
    case .module: ["    Bundle.module"]
    case .auto:
      [
        "    #if SWIFT_PACKAGE", "      return Bundle.module", "    #else",
        "      return Bundle(for: BundleToken.self)", "    #endif",
      ]
    }
  }

  /// The type's opening, its name and point size, and its default `bundle` (whose body is
  /// `bundle`).
  private static func imageAssetProperties(access: String, bundle: [String]) -> [String] {
    [
      "/// An image set of the catalog: the name it is looked up by, its point size, and its image.",
      "\(access) struct ImageAsset: Hashable, Sendable {",
      "  /// The name the catalog looks the image set up by.",
      "  \(access) let name: String",
      "  /// The point width of the image set's outputs.",
      "  \(access) let width: Double",
      "  /// The point height of the image set's outputs.",
      "  \(access) let height: Double",
      "",
      "  /// The point size of the image set's outputs (0 × 0 for an app icon or a vector-only set).",
      "  \(access) var size: CGSize { CGSize(width: width, height: height) }",
      "",
      "  /// The bundle images are loaded from when none is given.",
      "  \(access) static var bundle: Bundle {",
    ] + bundle + ["  }", ""]
  }

  /// `thumbHash` and `thumbHashData`, when the build makes placeholders
  /// (`placeholders: thumbhash`).
  private static func placeholderProperties(access: String) -> [String] {
    [
      "  /// The image set's ThumbHash in base64 (`placeholders: thumbhash`): any ThumbHash decoder",
      "  /// makes it a blurred stand-in of the image's aspect, shown at ``size`` while it loads.",
      "  /// Nil for a set without one (an app icon, a vector-only set).",
      "  \(access) let thumbHash: String?",
      "",
      "  /// The ThumbHash's bytes, as decoders take them.",
      "  \(access) var thumbHashData: Data? { thumbHash.flatMap { Data(base64Encoded: $0) } }",
      "",
    ]
  }

  /// `image` and `image(in:)`: a `UIImage` where UIKit exists, else an `NSImage` where
  /// AppKit does (neither on Linux).
  private static func platformImageAccessors(access: String) -> [String] {
    [
      "  #if canImport(UIKit)",
      "    /// The image, from ``bundle``.",
      "    \(access) var image: UIImage { image(in: Self.bundle) }",
      "",
      "    /// The image, from `bundle`.",
      "    \(access) func image(in bundle: Bundle) -> UIImage {",
      "      #if os(watchOS)",
      "        let image = UIImage(named: name, in: bundle, with: nil)",
      "      #else",
      "        let image = UIImage(named: name, in: bundle, compatibleWith: nil)",
      "      #endif",
      "      guard let image else { fatalError(\"Unable to load image asset named \\(name).\") }",
      "      return image",
      "    }",
      "  #elseif canImport(AppKit)",
      "    /// The image, from ``bundle``.",
      "    \(access) var image: NSImage { image(in: Self.bundle) }",
      "",
      "    /// The image, from `bundle`.",
      "    \(access) func image(in bundle: Bundle) -> NSImage {",
      "      guard let image = bundle.image(forResource: NSImage.Name(name)) else {",
      "        fatalError(\"Unable to load image asset named \\(name).\")",
      "      }",
      "      return image",
      "    }",
      "  #endif",
      "",
    ]
  }

  /// `swiftUIImage` and `swiftUIImage(in:)`, where SwiftUI exists.
  private static func swiftUIImageAccessors(access: String) -> [String] {
    [
      "  #if canImport(SwiftUI)",
      "    /// The SwiftUI image, from ``bundle``.",
      "    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)",
      "    \(access) var swiftUIImage: SwiftUI.Image { SwiftUI.Image(name, bundle: Self.bundle) }",
      "",
      "    /// The SwiftUI image, from `bundle`.",
      "    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)",
      "    \(access) func swiftUIImage(in bundle: Bundle) -> SwiftUI.Image {",
      "      SwiftUI.Image(name, bundle: bundle)",
      "    }",
      "  #endif",
    ]
  }
}
