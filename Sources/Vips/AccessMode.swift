/// How pixels will be read, which lets libvips stream large images.
package enum AccessMode: String, Sendable, Codable {
  /// Read in any order; needed when an image is read more than once.
  case random
  /// Read top to bottom once; lower memory for a single pass.
  case sequential
}
