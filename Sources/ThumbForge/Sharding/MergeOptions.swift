public import Foundation

/// What `merge` is asked to do: assemble shard parts into one catalog and manifest.
public struct MergeOptions: Sendable {
  /// The part folders, one per shard (any order).
  public var parts: [URL]
  /// The catalog to write (new, or one a previous build or merge wrote).
  public var output: URL
  /// The manifest (default: `manifest.json` beside the catalog).
  public var manifest: URL?
  /// Also write the generated Swift accessors here (what `swift:` makes a build write).
  public var swiftFile: URL?

  public init(parts: [URL], output: URL) {
    self.parts = parts
    self.output = output
  }
}
