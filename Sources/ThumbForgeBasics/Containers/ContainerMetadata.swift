/// A JPEG's or a PNG's metadata removed by rewriting its container (``JPEGMetadata``,
/// ``PNGMetadata``): the one place that tries both walks on a file of either format.
package enum ContainerMetadata {
  /// `bytes` without their metadata; nil when they are neither a JPEG nor a PNG this can
  /// walk, or carry none.
  package static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
    JPEGMetadata.stripped(bytes) ?? PNGMetadata.stripped(bytes)
  }
}
