public import Vips

/// How an output gets its pixels.
public enum OutputMode: String, Sendable, Codable, Hashable {
  /// The master's bytes, unchanged (a per-scale master in the output format).
  case copy
  /// The master decoded and re-encoded at its own size (format, colour or orientation).
  case reencode
  /// The master resampled (or a vector master rendered) to the output size.
  case render
}

/// One image file a plan will produce.
public struct PlannedOutput: Hashable, Sendable, Codable {
  /// Display scale (1–3), or 0 for a single-scale vector file.
  public var scale: Int
  public var isDark: Bool
  /// Final pixel size of the file.
  public var pixelSize: PixelSize
  /// For `fill`-type recipes: the size the master is resized to before the crop.
  public var resizeTo: PixelSize
  /// The crop in resized pixels (nil when not cropping or when libvips chooses it).
  public var crop: PixelRect?
  /// The master path it is made from.
  public var master: String
  public var mode: OutputMode
  /// Encoder (unused for a single-scale vector copy, which keeps the master's format).
  public var format: ImageFormat
  /// File name inside the imageset.
  public var fileName: String
  /// Path relative to the catalog root.
  public var path: String
  /// The resampling factor from the master, when it enlarges (> 1).
  public var upscale: Double?
}

/// One imageset: the outputs of one recipe for one asset, and everything written for it.
public struct PlannedImageSet: Hashable, Sendable, Codable {
  public var recipe: Recipe
  /// Imageset folder name without `.imageset`.
  public var name: String
  /// Folder path relative to the catalog root (`Flags/Austria-flag.imageset`).
  public var folder: String
  public var outputs: [PlannedOutput]
  /// Outputs left out, in words (e.g. a variant that would upscale).
  public var skipped: [String]
  /// Outputs made with a caveat (e.g. upscaled).
  public var warnings: [String]
  /// The exact text of the imageset's `Contents.json`.
  public var contents: String
  /// The cache key: a hash of this whole value (recipe, planned outputs, `Contents.json`,
  /// notes) with the tool and libvips versions; with the masters' hashes it decides
  /// whether the imageset is up to date. See ``ImageSetKeyMaker``.
  public var key: String
}

/// All imagesets of one asset: rendered together so each master is decoded once.
public struct Job: Hashable, Sendable {
  public var source: AssetSource
  public var imageSets: [PlannedImageSet]
}

/// The whole build: values only, printable with `--dry-run`.
public struct BuildPlan: Sendable {
  public var jobs: [Job]
  public var problems: [Problem]

  public init(jobs: [Job], problems: [Problem]) {
    self.jobs = jobs
    self.problems = problems
  }

  /// Every planned output count.
  public var outputCount: Int {
    jobs.reduce(0) { $0 + $1.imageSets.reduce(0) { $0 + $1.outputs.count } }
  }
}
