/// A file found by ``FolderScanner``.
package struct ScannedFile: Hashable, Sendable {
  /// `/`-separated path relative to the scanned folder.
  package var relativePath: String
  package var byteSize: Int
  /// Modification time in nanoseconds since 1970 (for the probe cache only).
  package var modified: Int64
}
