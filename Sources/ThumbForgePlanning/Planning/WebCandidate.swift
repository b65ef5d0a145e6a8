package import ThumbForgeBasics
package import ThumbForgeConfig
package import Vips

/// One file of an imageset's web sizes (`web:`): its catalog file scaled to one of the
/// configured widths, in one format. Planned with the catalog file it is made from
/// (``PlannedOutput/webSizes``); not encoded: the key's header names the `web:` settings,
/// and the rest follows from the output.
package struct WebCandidate: Hashable, Sendable {
  package var appearance: Slot.Appearance
  package var pixelSize: PixelSize
  package var format: ImageFormat
  /// Path relative to the web folder (`Flags/Austria-flag-320w.webp`,
  /// `Photos/Zermatt~dark-640w.jpg`).
  package var path: String
  /// What an image with alpha is flattened onto (nil: its alpha is kept): for JPEG.
  package var flatten: RGBAColor?

  /// The web sizes of `output`, a file of `recipe`'s imageset `name` in `group`: every width
  /// of `settings` up to the file's own, and the file's own in place of those past it (never
  /// enlarged), each in every format, the height in the file's aspect.
  static func sizes(
    of output: PlannedOutput, recipe: Recipe, group: [String], name: String,
    settings: WebSettings
  ) -> [WebCandidate] {
    let size = output.pixelSize
    // A width past the file's own is replaced by the file's own width, once.
    var widths = settings.widths.filter { $0 <= size.width }
    if widths.last != size.width && settings.widths.contains(where: { $0 > size.width }) {
      widths.append(size.width)
    }
    var formats: [ImageFormat] = []
    for format in settings.formats.map({ $0.resolved(catalogFormat: output.format) })
    where !formats.contains(format) {
      formats.append(format)
    }
    let stem =
      (group + [name]).joined(separator: "/")
      + (output.slot.appearance == .dark ? "~dark" : "")
    return formats.flatMap { format in
      widths.map { width in
        let height = max(1, Int((Double(size.height * width) / Double(size.width)).rounded()))
        return WebCandidate(
          appearance: output.slot.appearance, pixelSize: PixelSize(width: width, height: height),
          format: format, path: "\(stem)-\(width)w.\(format.fileExtension)",
          flatten: format.supportsAlpha ? nil : recipe.background)
      }
    }
  }
}

extension WebFormat {
  /// The format written for this choice when the catalog file is in `catalogFormat`.
  func resolved(catalogFormat: ImageFormat) -> ImageFormat {
    switch self {
    case .avif: .avif
    case .webp: .webp
    case .jpeg: .jpeg
    case .png: .png
    case .auto: catalogFormat == .jpeg ? .jpeg : .png
    }
  }
}

extension PlannedImageSet {
  /// Plans the web sizes (`web:`) of an imageset (not an app icon set or another carried
  /// set): for each appearance, from the largest raster file in sRGB (the highest scale
  /// among equals), the file that shows the image at its sharpest. A set without one (a
  /// kept vector master only) gets none.
  mutating func planWebSizes(group: [String], settings: WebSettings) {
    guard folder.hasSuffix(".imageset") else { return }
    for appearance in [Slot.Appearance.any, .dark] {
      guard let chosen = largestSRGBOutput(appearance) else { continue }
      outputs[chosen].webSizes = WebCandidate.sizes(
        of: outputs[chosen], recipe: recipe, group: group, name: name, settings: settings)
      webJSON = (group + [name]).joined(separator: "/") + ".json"
    }
  }

  /// Every web size of the imageset, in its outputs' order.
  package var webSizes: [WebCandidate] { outputs.flatMap(\.webSizes) }
}
