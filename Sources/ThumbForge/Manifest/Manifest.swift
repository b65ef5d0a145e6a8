/// The machine-readable record of a build (`manifest.json`): what was produced from what.
/// It is also the ownership list: ThumbForge only ever updates or deletes files listed here.
public struct Manifest: Codable, Equatable, Sendable {
  /// Bumped when the format changes incompatibly.
  public static let currentSchema = 1

  public var schema: Int
  public var tool: String
  public var toolVersion: String
  public var libvipsVersion: String
  /// SHA-256 of the configuration file's bytes (empty without one).
  public var configHash: String
  /// Catalog folder, relative to the manifest's folder.
  public var catalog: String
  /// Group folders whose `Contents.json` ThumbForge wrote (catalog-relative).
  public var groups: [String]
  public var imageSets: [ManifestImageSet]

  public init(
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
  func differs(from other: Manifest?, unlessSameEntries: Bool) -> Bool {
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
public struct ManifestImageSet: Codable, Equatable, Sendable {
  /// `Group/Name` of the asset.
  public var asset: String
  public var group: [String]
  public var recipe: String
  public var recipeHash: String
  /// Imageset folder, catalog-relative.
  public var folder: String
  /// Hash of the imageset's `Contents.json`.
  public var contentsHash: String
  public var sources: [ManifestSource]
  public var outputs: [ManifestOutput]
  public var warnings: [String]
  public var skipped: [String]
  /// The focus point its crops were placed around (the asset's `focus:` under `assets:`, or
  /// its rule's), if any.
  public var focus: FocusPoint? = nil
}

/// A master file and its content hash.
public struct ManifestSource: Codable, Equatable, Sendable {
  /// Path relative to the asset folder.
  public var path: String
  public var hash: String
}

/// One produced image file.
public struct ManifestOutput: Codable, Equatable, Sendable {
  /// Path relative to the catalog.
  public var path: String
  public var scale: Int
  public var appearance: String?
  public var width: Int
  public var height: Int
  public var bytes: Int
  public var hash: String
  /// For gravity crops: the kept rectangle in the resized master's pixels.
  public var crop: PixelRect?
  /// `display-P3` for a Display P3 file (`display-gamut`); absent for sRGB.
  public var displayGamut: String? = nil
}
