package import ThumbForgeBasics
internal import ThumbForgeConfig

/// The machine-readable record of a build (`manifest.json`): what was produced from what.
/// It is also the ownership list: ThumbForge only ever updates or deletes files listed here.
package struct Manifest: Codable, Equatable, Sendable {
  /// Bumped when the format changes incompatibly.
  package static let currentSchema = 1

  package var schema: Int
  package var tool: String
  package var toolVersion: String
  package var libvipsVersion: String
  /// SHA-256 of the configuration file's bytes (empty without one).
  package var configHash: String
  /// Catalog folder, relative to the manifest's folder.
  package var catalog: String
  /// Group folders whose `Contents.json` ThumbForge wrote (catalog-relative).
  package var groups: [String]
  package var imageSets: [ManifestImageSet]
  /// Masters that failed to render in the build that wrote the manifest, with why, sorted
  /// by path (nil: none), so that `check` can say why an imageset is missing.
  package var failed: [ManifestFailure]? = nil
  /// The settings of every recipe the imagesets name (key → value as written in the
  /// configuration), so that `check` can name the key that changed (nil: none recorded).
  package var recipes: [String: [String: String]]? = nil
  /// The other settings that enter imageset keys (see ``Config/keySettings``), so that
  /// `check` can name the one that changed (nil: none recorded).
  package var settings: [String: String]? = nil

  package init(
    toolVersion: String, libvipsVersion: String, configHash: String, catalog: String,
    groups: [String], imageSets: [ManifestImageSet]
  ) {
    schema = Self.currentSchema
    tool = "thumbforge"
    self.toolVersion = toolVersion
    self.libvipsVersion = libvipsVersion
    self.configHash = configHash
    self.catalog = catalog
    self.groups = groups.sorted()
    self.imageSets = imageSets.sorted { $0.folder < $1.folder }
  }
}

extension Manifest {
  /// Whether this manifest differs from `other` (nil: there is none).
  ///
  /// With `unlessSameEntries`, the caller vouches that this manifest's imagesets are the
  /// other's own entries, one for each (none written or dropped): then only the other's order
  /// and the fields besides the imagesets are compared, not tens of thousands of entries.
  package func differs(from other: Manifest?, unlessSameEntries: Bool) -> Bool {
    guard let other else { return true }
    guard unlessSameEntries, other.imageSets.count == imageSets.count,
      zip(other.imageSets, other.imageSets.dropFirst()).allSatisfy({ $0.folder < $1.folder })
    else { return self != other }
    var mine = self
    var theirs = other
    mine.imageSets = []
    theirs.imageSets = []
    return mine != theirs
  }
}

/// One imageset in the manifest.
package struct ManifestImageSet: Codable, Equatable, Sendable {
  /// `Group/Name` of the asset.
  package var asset: String
  package var group: [String]
  package var recipe: String
  package var recipeHash: String
  /// Imageset folder, catalog-relative.
  package var folder: String
  /// Hash of the imageset's `Contents.json`.
  package var contentsHash: String
  package var sources: [ManifestSource]
  package var outputs: [ManifestOutput]
  package var warnings: [String]
  package var skipped: [String]
  /// The focus point its crops were placed around (the asset's `focus:` under `assets:`, or
  /// its rule's), if any.
  package var focus: FocusPoint? = nil
  /// The imageset's ThumbHash in base64 (`placeholders: thumbhash`), made from its largest
  /// sRGB file; absent without placeholders.
  package var thumbHash: String? = nil
  /// The imageset's web sizes and their JSON (`web:`); absent without them.
  package var web: ManifestDerived? = nil
  /// The imageset's Android drawables (`android:`); absent without them.
  package var android: ManifestDerived? = nil

  /// The files of each destination beside the catalog it has, by name (`web`, `android`).
  package var derived: [(destination: String, files: ManifestDerived)] {
    [web.map { ("web", $0) }, android.map { ("android", $0) }].compactMap { $0 }
  }

  /// Whether the entry is a set folder carried as it is (the `as-is` recipe), not an
  /// imageset ThumbForge made.
  package var isCarried: Bool { recipe == RecipeKind.asIs.rawValue }

  package init(
    asset: String, group: [String], recipe: String, recipeHash: String, folder: String,
    contentsHash: String, sources: [ManifestSource], outputs: [ManifestOutput], warnings: [String],
    skipped: [String], focus: FocusPoint? = nil
  ) {
    self.asset = asset
    self.group = group
    self.recipe = recipe
    self.recipeHash = recipeHash
    self.folder = folder
    self.contentsHash = contentsHash
    self.sources = sources
    self.outputs = outputs
    self.warnings = warnings
    self.skipped = skipped
    self.focus = focus
  }
}

/// The files a destination beside the catalog has of an imageset (`web:`, `android:`), by
/// paths relative to the manifest's folder (`web/Flags/Austria-flag-320w.webp`), so they can
/// be removed whatever the configuration says now.
package struct ManifestDerived: Codable, Equatable, Sendable {
  package var files: [ManifestDerivedFile]
  /// The web sizes' JSON listing the files (`web/Flags/Austria-flag.json`); nil for Android.
  package var json: String? = nil
  package var jsonHash: String? = nil

  package init(files: [ManifestDerivedFile], json: String? = nil, jsonHash: String? = nil) {
    self.files = files
    self.json = json
    self.jsonHash = jsonHash
  }

  /// Every path it lists: the files, then the JSON.
  package var paths: [String] { files.map(\.path) + (json.map { [$0] } ?? []) }
}

/// One file of a destination beside the catalog.
package struct ManifestDerivedFile: Codable, Equatable, Sendable {
  /// Path relative to the manifest's folder.
  package var path: String
  /// `dark` for the dark appearance's; absent for the any appearance's.
  package var appearance: String?
  package var width: Int
  package var height: Int
  package var bytes: Int
  package var hash: String

  package init(
    path: String, appearance: String?, width: Int, height: Int, bytes: Int, hash: String
  ) {
    self.path = path
    self.appearance = appearance
    self.width = width
    self.height = height
    self.bytes = bytes
    self.hash = hash
  }
}

/// A master file and its content hash.
package struct ManifestSource: Codable, Equatable, Sendable {
  /// Path relative to the asset folder.
  package var path: String
  package var hash: String

  package init(path: String, hash: String) {
    self.path = path
    self.hash = hash
  }
}

/// One produced image file.
package struct ManifestOutput: Codable, Equatable, Sendable {
  /// Path relative to the catalog.
  package var path: String
  package var scale: Int
  package var appearance: String?
  package var width: Int
  package var height: Int
  package var bytes: Int
  package var hash: String
  /// For gravity crops: the kept rectangle in the resized master's pixels.
  package var crop: PixelRect?
  /// `display-P3` for a Display P3 file (`display-gamut`); absent for sRGB.
  package var displayGamut: String? = nil

  package init(
    path: String, scale: Int, appearance: String? = nil, width: Int, height: Int, bytes: Int,
    hash: String, crop: PixelRect? = nil, displayGamut: String? = nil
  ) {
    self.path = path
    self.scale = scale
    self.appearance = appearance
    self.width = width
    self.height = height
    self.bytes = bytes
    self.hash = hash
    self.crop = crop
    self.displayGamut = displayGamut
  }
}

/// A master the build could not render, and why (the problem it reported).
package struct ManifestFailure: Codable, Hashable, Sendable, Comparable {
  /// Path relative to the asset folder.
  package var path: String
  package var reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  package static func < (lhs: ManifestFailure, rhs: ManifestFailure) -> Bool {
    (lhs.path, lhs.reason) < (rhs.path, rhs.reason)
  }
}
