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

  /// Build only this shard's part of the jobs, into a part folder for `merge`.
  public var shard: Shard?
  /// The shard's part folder (default: `shards/I-of-N` beside the manifest).
  public var part: URL?

  public init(folder: URL) {
    self.folder = folder
  }
}
