package import Foundation

/// What `merge` is asked to do: assemble shard parts into one catalog and manifest.
package struct MergeOptions: Sendable {
  /// The part folders, one per shard (any order).
  package var parts: [URL]
  /// The catalog to write (new, or one a previous build or merge wrote).
  package var output: URL
  /// The manifest (default: `manifest.json` beside the catalog).
  package var manifest: URL?
  /// Also write the generated Swift accessors here (what `swift:` makes a build write).
  package var swiftFile: URL?

  package init(parts: [URL], output: URL) {
    self.parts = parts
    self.output = output
  }
}
