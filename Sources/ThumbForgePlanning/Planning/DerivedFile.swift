package import ThumbForgeBasics
package import ThumbForgeConfig
package import Vips

/// One file a destination beside the catalog gets from an imageset (`web:`, `android:`): the
/// imageset's largest catalog file of an appearance, scaled to a width or a density, in one
/// format. Planned with the catalog file it is made from (``PlannedOutput/derived``); not
/// encoded: the key's header names the destinations' settings, and the rest follows from
/// the output.
package struct DerivedFile: Hashable, Sendable {
  /// Where the file goes.
  package enum Destination: String, Hashable, Sendable, CaseIterable {
    /// `web:`: a width of a page's `srcset`.
    case web
    /// `android:`: a density of an Android drawable.
    case android
  }

  package var destination: Destination
  package var appearance: Slot.Appearance
  package var pixelSize: PixelSize
  package var format: ImageFormat
  /// Path relative to the destination's folder (`Flags/Austria-flag-320w.webp`,
  /// `drawable-night-xhdpi/austria_flag.png`).
  package var path: String
  /// What an image with alpha is flattened onto (nil: its alpha is kept): for JPEG.
  package var flatten: RGBAColor?
  /// The size the catalog file is resized to (the file's own size unless ``finish`` places
  /// it on a larger canvas).
  package var resizeTo: PixelSize
  /// What the renderer does after the resize (launcher icons).
  package var finish = Finish.none
  /// The file's text, for a resource that is not an image (an adaptive icon's XML, a colour):
  /// written as it is; its ``pixelSize`` is zero.
  package var text: String? = nil

  /// What the renderer does to a derived file after its resize.
  package enum Finish: Hashable, Sendable {
    case none
    /// Masked to this shape (a round launcher icon's circle).
    case shape(OutputShape)
    /// Centred on a transparent canvas of the file's size (an adaptive icon's layer).
    case inset
    /// White with its alpha (or, when opaque, its luminance) as alpha, centred as ``inset``
    /// (a monochrome layer).
    case silhouette
  }

  init(
    _ destination: Destination, of output: PlannedOutput, recipe: Recipe, size: PixelSize,
    format: ImageFormat, path: String
  ) {
    self.destination = destination
    appearance = output.slot.appearance
    pixelSize = size
    self.format = format
    self.path = path
    flatten = format.supportsAlpha ? nil : recipe.background
    resizeTo = size
  }
}

extension PlannedImageSet {
  /// Plans the files of the destinations `config` turns on (`web:`, `android:`) for an
  /// imageset (not an app icon set or another carried set): for each appearance, from the
  /// largest raster file in sRGB (the highest scale among equals), the file that shows the
  /// image at its sharpest. A set without one (a kept vector master only) gets none.
  mutating func planDerivedFiles(group: [String], config: Config) {
    if config.android.isOn && folder.hasSuffix(".appiconset") {
      planLauncherIcons(settings: config.android)
    }
    guard folder.hasSuffix(".imageset") else { return }
    for appearance in [Slot.Appearance.any, .dark] {
      guard let chosen = largestSRGBOutput(appearance) else { continue }
      let output = outputs[chosen]
      if config.web.isOn {
        outputs[chosen].derived += DerivedFile.webSizes(
          of: output, recipe: recipe, group: group, name: name, settings: config.web)
        webJSON = (group + [name]).joined(separator: "/") + ".json"
      }
      if config.android.isOn {
        outputs[chosen].derived += DerivedFile.androidDensities(
          of: output, recipe: recipe, name: androidName, settings: config.android)
      }
    }
  }

  /// The imageset's files for `destination`, in its outputs' order.
  package func derivedFiles(_ destination: DerivedFile.Destination) -> [DerivedFile] {
    outputs.flatMap { $0.derived.filter { $0.destination == destination } }
  }
}
