internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import Vips

extension DerivedFile {
  /// The web sizes of `output`, a file of `recipe`'s imageset `name` in `group`: every width
  /// of `settings` up to the file's own, and the file's own in place of those past it (never
  /// enlarged), each in every format, the height in the file's aspect.
  static func webSizes(
    of output: PlannedOutput, recipe: Recipe, group: [String], name: String,
    settings: WebSettings
  ) -> [DerivedFile] {
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
        return DerivedFile(
          .web, of: output, recipe: recipe, size: PixelSize(width: width, height: height),
          format: format, path: "\(stem)-\(width)w.\(format.fileExtension)")
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
