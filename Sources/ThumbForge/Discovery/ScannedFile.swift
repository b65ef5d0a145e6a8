/// A file found by ``FolderScanner``.
struct ScannedFile: Hashable, Sendable {
  /// `/`-separated path relative to the scanned folder.
  var relativePath: String
  var byteSize: Int
  /// Modification time in nanoseconds since 1970 (for the probe cache only).
  var modified: Int64
}
