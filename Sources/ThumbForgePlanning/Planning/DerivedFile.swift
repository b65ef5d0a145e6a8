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
  /// Where its pixels come from.
  package var source = Source.catalogFile

  /// Where a derived file's pixels come from.
  package indirect enum Source: Hashable, Sendable {
    /// The catalog file's finished pixels, resized.
    case catalogFile
    /// The master, rendered on its own as this output (a vector master at an Android
    /// density, crisp at each, not resampled from another scale's pixels).
    case master(PlannedOutput)
  }

  /// The output the renderer makes from the master for this file (nil: made from the
  /// catalog file's pixels).
  package var masterOutput: PlannedOutput? {
    guard case .master(let output) = source else { return nil }
    return output
  }

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
  /// A vector master's drawables are rendered from it at each density (`vectors`: the
  /// imageset's vector master of each appearance, if any), a kept vector's too.
  mutating func planDerivedFiles(
    group: [String], config: Config, vectors: [Slot.Appearance: Master] = [:]
  ) {
    let resource = config.android.isOn ? androidName : ""
    if config.android.isOn && folder.hasSuffix(".appiconset") {
      planLauncherIcons(name: resource, settings: config.android)
    }
    defer {
      if outputs.contains(where: { $0.derived.contains { $0.destination == .android } }) {
        androidResource = resource
      }
    }
    guard folder.hasSuffix(".imageset") else { return }
    for appearance in [Slot.Appearance.any, .dark] {
      if config.web.isOn, let chosen = largestSRGBOutput(appearance) {
        outputs[chosen].derived += DerivedFile.webSizes(
          of: outputs[chosen], recipe: recipe, group: group, name: name, settings: config.web)
        webJSON = (group + [name]).joined(separator: "/") + ".json"
      }
      guard config.android.isOn,
        let chosen = largestSRGBOutput(appearance) ?? keptVectorOutput(appearance)
      else { continue }
      let output = outputs[chosen]
      if let vector = vectors[appearance], vector.path == output.master {
        let drawables = DerivedFile.androidDensities(
          of: vector, output: output, settings: config.android, name: resource,
          planner: OutputPlanner(recipe: recipe, asset: name, folder: folder, focus: focus))
        outputs[chosen].derived += withinLimits(drawables, RenderLimits(config))
      } else if output.scale != Slot.singleScale {
        outputs[chosen].derived += DerivedFile.androidDensities(
          of: output, recipe: recipe, name: resource, settings: config.android)
      }
    }
  }

  /// The files of `derived` rendered from the master that `limits` let be rendered; the others
  /// are left out, each said in ``skipped`` (the catalog's files are still made).
  private mutating func withinLimits(_ derived: [DerivedFile], _ limits: RenderLimits)
    -> [DerivedFile]
  {
    derived.filter { file in
      guard let output = file.masterOutput, let refusal = limits.refusal(of: output) else {
        return true
      }
      let message = "\(refusal); left out"
      skipped.append(message)
      notices.append(
        BuildWarning(kind: .skipped, file: output.master, imageSet: folder, message: message))
      return false
    }
  }

  /// The index of the kept vector master's file of `appearance` (`keep-vector: true`).
  private func keptVectorOutput(_ appearance: Slot.Appearance) -> Int? {
    outputs.firstIndex {
      $0.slot.appearance == appearance && $0.scale == Slot.singleScale && $0.mode == .copy
    }
  }

  /// The imageset's files for `destination`, in its outputs' order (a view: nothing copied).
  package func derivedFiles(_ destination: DerivedFile.Destination) -> some Collection<DerivedFile>
  {
    outputs.lazy.flatMap { $0.derived.lazy.filter { $0.destination == destination } }
  }
}

extension PlannedOutput {
  /// The derived files made from this file's finished pixels (not from the master).
  package var derivedFromPixels: [DerivedFile] {
    derived.filter { $0.source == .catalogFile }
  }
}
