/// The file format of an output: a fixed one, or `auto` (PNG when the output has alpha
/// or the master is PNG/GIF/SVG/PDF, otherwise JPEG). `avif` needs an AV1 encoder in libheif.
package enum OutputFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case auto, png, jpeg, webp, heif, avif
}
