public import Foundation

/// What a build, check or regenerate run is asked to do.
public struct BuildOptions: Sendable {
  /// The asset folder.
  public var folder: URL
  /// An explicit configuration file (default: `thumbforge.yml` in the folder).
  public var configFile: URL?
  /// Override of the configured catalog path.
  public var output: URL?
  /// What the run does: build, check, regenerate named assets, or force everything.
  public var mode: BuildMode = .build
  /// Take over existing imagesets that ThumbForge did not create.
  public var adopt = false
  /// Parallel jobs; nil uses the configuration, then the core count.
  public var jobs: Int?
  /// Generated Swift accessors file (overrides the configuration).
  public var swiftFile: URL?
  /// Also write a contact sheet (one PNG of every output, labelled) here.
  public var contactSheet: URL?

  public init(folder: URL) {
    self.folder = folder
  }
}

/// What a run does with the stale outputs it finds.
public enum BuildMode: Sendable, Equatable {
  /// Render what is stale, remove what is orphaned.
  case build
  /// Only compare: report what is stale, write nothing.
  case check
  /// Render exactly the assets these names or globs match, whatever their state; leave
  /// everything else (orphans included) as it is.
  case regenerate([String])
  /// Render everything, even what is up to date.
  case force
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

extension BuildMode {
  /// The names or globs of `regenerate` (empty in every other mode).
  var patterns: [String] {
    if case .regenerate(let patterns) = self { return patterns }
    return []
  }

  var isRegenerate: Bool {
    if case .regenerate = self { return true }
    return false
  }
}
