public import Foundation

/// What a build, check or regenerate run is asked to do.
public struct BuildOptions: Sendable {
  /// The asset folder.
  public var folder: URL
  /// An explicit configuration file (default: `thumbforge.yml` in the folder).
  public var configFile: URL?
  /// Override of the configured catalog path.
  public var output: URL?
  /// Render everything, even what is up to date.
  public var force = false
  /// Only report what would happen; write nothing.
  public var checkOnly = false
  /// Take over existing imagesets that ThumbForge did not create.
  public var adopt = false
  /// Asset names or globs to render again whatever their state.
  public var regenerate: [String] = []
  /// Parallel jobs; nil uses the configuration, then the core count.
  public var jobs: Int?
  /// Generated Swift accessors file (overrides the configuration).
  public var swiftFile: URL?

  public init(folder: URL) {
    self.folder = folder
  }
}

/// Progress of a run, for the CLI to display. Nothing below the CLI prints.
public enum BuildEvent: Sendable {
  /// The plan is made: `jobs` sources need rendering, `outputs` files in all.
  case started(jobs: Int, outputs: Int)
  /// One source finished (`done` of `total`).
  case jobFinished(asset: String, done: Int, total: Int)
  /// A file could not be used or rendered.
  case problem(Problem)
  /// Something was made with a caveat, or left out.
  case warning(String)
}
