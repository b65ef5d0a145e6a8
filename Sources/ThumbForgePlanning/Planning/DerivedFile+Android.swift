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
    return settings.densities.filter { $0.factor <= scale }.map { density in
      let size = PixelSize(
        width: max(1, Int((Double(output.pixelSize.width) * density.factor / scale).rounded())),
        height: max(1, Int((Double(output.pixelSize.height) * density.factor / scale).rounded())))
      return DerivedFile(
        .android, of: output, recipe: recipe, size: size, format: format,
        path: drawablePath(name, density, output.slot.appearance, format))
    }
  }

  /// `drawable-<density>/<name>.<ext>`, under `drawable-night-<density>` for the dark
  /// appearance.
  static func drawablePath(
    _ name: String, _ density: AndroidDensity, _ appearance: Slot.Appearance,
    _ format: ImageFormat
  ) -> String {
    let night = appearance == .dark ? "-night" : ""
    return "drawable\(night)-\(density.rawValue)/\(name).\(format.fileExtension)"
  }
}

extension DerivedFile {
  /// The drawables of `vector`, the master of `output`, as the resource `name`: at every
  /// density of `settings`, each planned by `planner` at that density as the recipe plans
  /// a catalog file (box, crop, shape and stroke scaled), and rendered from the master.
  static func androidDensities(
    of vector: Master, output: PlannedOutput, settings: AndroidSettings, name: String,
    planner: OutputPlanner
  ) -> [DerivedFile] {
    let format = settings.format.resolved(catalogFormat: output.format)
    return settings.densities.compactMap { density in
      let path = drawablePath(name, density, output.slot.appearance, format)
      guard
        let rendered = planner.output(
          vector: vector, appearance: output.slot.appearance, density: density.factor,
          format: format, path: path)
      else { return nil }
      var file = DerivedFile(
        .android, of: output, recipe: planner.recipe, size: rendered.pixelSize, format: format,
        path: path)
      file.source = .master(rendered)
      return file
    }
  }
}

extension OutputPlanner {
  /// The output of `vector` in `appearance` at `density` (an Android density), in `format`
  /// at `path`: planned as the recipe plans a catalog file at that scale (nil when it plans
  /// none).
  func output(
    vector: Master, appearance: Slot.Appearance, density: Double, format: ImageFormat,
    path: String
  ) -> PlannedOutput? {
    var planner = self
    planner.density = density
    let slot = Slot(scale: Int(density.rounded(.up)), appearance: appearance)
    guard case .output(var output, _) = planner.output(masters: [vector], slot: slot) else {
      return nil
    }
    output.format = format
    output.path = path
    output.fileName = String(path.split(separator: "/").last ?? "")
    output.finish = OutputFinish.plan(
      recipe: recipe, output: output, master: vector, scale: density)
    return output
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
