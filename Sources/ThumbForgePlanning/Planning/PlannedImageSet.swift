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

  private enum CodingKeys: String, CodingKey {
    case recipe, name, folder, outputs, skipped, warnings, focus, contents, key
  }
}
