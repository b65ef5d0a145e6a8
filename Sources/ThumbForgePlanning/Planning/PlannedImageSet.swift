package import ThumbForgeBasics
package import ThumbForgeConfig

/// One imageset: the outputs of one recipe for one asset, and everything written for it.
package struct PlannedImageSet: Hashable, Sendable, Codable {
  package var recipe: Recipe
  /// Imageset folder name without `.imageset`.
  package var name: String
  /// Folder path relative to the catalog root (`Flags/Austria-flag.imageset`).
  package var folder: String
  package var outputs: [PlannedOutput]
  /// Outputs left out, in words (e.g. a variant that would upscale).
  package var skipped: [String]
  /// Outputs made with a caveat (e.g. upscaled).
  package var warnings: [String]
  /// `warnings` and `skipped` with their kind and the file concerned, for the run's report.
  /// Not encoded: the key (see ``ImageSetKeyMaker``) and the manifest record the texts.
  package var notices: [BuildWarning] = []
  /// The rule's focus point, for recipes that crop (their crops are placed around it).
  package var focus: FocusPoint?
  /// The exact text of the imageset's `Contents.json`.
  package var contents: String
  /// The cache key: a hash of this whole value (recipe, planned outputs, `Contents.json`,
  /// notes) with the tool and libvips versions; with the masters' hashes it decides
  /// whether the imageset is up to date. See ``ImageSetKeyMaker``.
  package var key: String
  /// The path of the output whose pixels make the imageset's placeholder (`placeholders:`),
  /// nil without one. Not encoded: it follows from the outputs and the setting, which the
  /// key's header names (``Planner/keyHeader``).
  package var placeholder: String? = nil
  /// The path of the imageset's web JSON in the web folder (`web:`), nil without web sizes.
  /// Not encoded, like ``placeholder``.
  package var webJSON: String? = nil
  /// The imageset's Android resource name when it has drawables or launcher icons
  /// (`android:`), nil otherwise. Not encoded, like ``placeholder``.
  package var androidResource: String? = nil

  private enum CodingKeys: String, CodingKey {
    case recipe, name, folder, outputs, skipped, warnings, focus, contents, key
  }
}

extension PlannedImageSet {
  /// Makes the largest raster file of the any appearance in sRGB the placeholder's source
  /// (the highest scale among equals): the one that shows the image as the app does at its
  /// sharpest. A set without one (a kept vector master only) gets no placeholder.
  mutating func choosePlaceholderSource() {
    guard let chosen = largestSRGBOutput(.any) else { return }
    outputs[chosen].makesPlaceholder = true
    placeholder = outputs[chosen].path
  }

  /// The index of the largest raster output of `appearance` in sRGB, the highest scale
  /// among equals (nil: none, as for a kept vector master only).
  func largestSRGBOutput(_ appearance: Slot.Appearance) -> Int? {
    outputs.indices.filter {
      let slot = outputs[$0].slot
      return slot.appearance == appearance && slot.gamut == .sRGB
        && slot.scale != Slot.singleScale
    }.max(by: {
      (outputs[$0].pixelSize.area, outputs[$0].scale) < (
        outputs[$1].pixelSize.area, outputs[$1].scale
      )
    })
  }
}
