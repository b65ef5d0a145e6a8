/// The `android:` section of `thumbforge.yml`: every imageset as an Android drawable at each
/// density, beside the catalog. Off until `folder` is set. Every key is a row of
/// ``Setting/android``.
package struct AndroidSettings: Sendable, Equatable {
  /// The `res` folder the drawables are written into, relative to the asset folder (outside
  /// it and outside the catalog); nil: no Android resources.
  package var folder: String? = nil
  /// The line of `folder`, for errors about it.
  package var folderLine: Int? = nil
  /// The densities written: a raster master's up to its catalog file's scale (never enlarged).
  package var densities: [AndroidDensity] = AndroidDensity.allCases
  /// The drawables' format.
  package var format: AndroidFormat = .auto

  /// Whether the build writes Android resources.
  package var isOn: Bool { folder != nil }

  /// The settings that decide the drawables' pixels and names (an imageset key's line).
  package var keyText: String {
    "densities=\(densities.map(\.rawValue).joined(separator: ","));format=\(format.rawValue)"
  }

  package init() {}
}

/// An Android screen density (`drawable-xhdpi`): its scale of a density-independent pixel.
package enum AndroidDensity: String, Sendable, Codable, CaseIterable, Hashable {
  case mdpi, hdpi, xhdpi, xxhdpi, xxxhdpi

  /// Pixels per dp (1, 1.5, 2, 3, 4).
  package var factor: Double {
    switch self {
    case .mdpi: 1
    case .hdpi: 1.5
    case .xhdpi: 2
    case .xxhdpi: 3
    case .xxxhdpi: 4
    }
  }
}

/// The drawables' format (`android: format:`).
package enum AndroidFormat: String, Sendable, Codable, CaseIterable, Hashable {
  /// The catalog file's own: PNG, JPEG or WebP (PNG for HEIF and AVIF, which resources
  /// cannot hold).
  case auto
  case png
  case webp
}
