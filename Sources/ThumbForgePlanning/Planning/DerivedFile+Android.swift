internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import Vips

extension DerivedFile {
  /// The drawables of `output`, a file of `recipe`'s imageset, as the resource `name`: its
  /// size in dp (its pixels ÷ its scale) at each density of `settings` up to the file's own
  /// scale (never enlarged), under `drawable-night-…` for the dark appearance.
  static func androidDensities(
    of output: PlannedOutput, recipe: Recipe, name: String, settings: AndroidSettings
  ) -> [DerivedFile] {
    let scale = Double(output.scale)
    let format = settings.format.resolved(catalogFormat: output.format)
    let night = output.slot.appearance == .dark ? "-night" : ""
    return settings.densities.filter { $0.factor <= scale }.map { density in
      let size = PixelSize(
        width: max(1, Int((Double(output.pixelSize.width) * density.factor / scale).rounded())),
        height: max(1, Int((Double(output.pixelSize.height) * density.factor / scale).rounded())))
      return DerivedFile(
        .android, of: output, recipe: recipe, size: size, format: format,
        path: "drawable\(night)-\(density.rawValue)/\(name).\(format.fileExtension)")
    }
  }
}

extension AndroidFormat {
  /// The format written for this choice when the catalog file is in `catalogFormat`.
  func resolved(catalogFormat: ImageFormat) -> ImageFormat {
    switch self {
    case .png: .png
    case .webp: .webp
    case .auto: [.jpeg, .webp].contains(catalogFormat) ? catalogFormat : .png
    }
  }
}

extension PlannedImageSet {
  /// The imageset's Android resource name (``AndroidResourceName``); an app icon set's is
  /// `ic_launcher` for `AppIcon` (Android's own), else `ic_launcher_` and its name.
  var androidName: String {
    guard folder.hasSuffix(".appiconset") else { return AndroidResourceName.make(name) }
    return name == "AppIcon" ? "ic_launcher" : "ic_launcher_" + AndroidResourceName.make(name)
  }
}
