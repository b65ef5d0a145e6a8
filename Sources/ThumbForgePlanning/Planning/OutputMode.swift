/// How an output gets its pixels.
package enum OutputMode: String, Sendable, Codable, Hashable {
  /// The master's bytes, unchanged (a per-scale master in the output format).
  case copy
  /// The master decoded and re-encoded at its own size (format, colour or orientation).
  case reencode
  /// The master resampled (or a vector master rendered) to the output size.
  case render
}
