package import Foundation
package import ThumbForgePlanning

/// What a build, check or regenerate run is asked to do.
package struct BuildOptions: Sendable {
  /// The asset folder.
  package var folder: URL
  /// An explicit configuration file (default: `thumbforge.yml` in the folder).
  package var configFile: URL?
  /// Override of the configured catalog path.
  package var output: URL?
  /// What the run does: build, check, regenerate named assets, or force everything.
  package var mode: BuildMode = .build
  /// Take over existing imagesets that ThumbForge did not create.
  package var adopt = false
  /// Parallel jobs; nil uses the configuration, then the core count.
  package var jobs: Int?
  /// Generated Swift accessors file (overrides the configuration).
  package var swiftFile: URL?
  /// Also write a contact sheet (one PNG of every output, labelled) here.
  package var contactSheet: URL?

  /// Build only this shard's part of the jobs, into a part folder for `merge`.
  package var shard: Shard?
  /// The shard's part folder (default: `shards/I-of-N` beside the manifest).
  package var part: URL?

  package init(folder: URL) {
    self.folder = folder
  }
}
