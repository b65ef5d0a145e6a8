package import ThumbForgeBasics

/// A file found by ``FolderScanner``.
package struct ScannedFile: Hashable, Sendable {
  /// `/`-separated path relative to the scanned folder.
  package var relativePath: String
  /// The version of the file the scan saw.
  package var facts: FileFacts

  package var byteSize: Int { facts.size }
  /// Modification time in nanoseconds since 1970.
  package var modified: Int64 { facts.modified }
}
