/// A JPEG file an image was loaded from, and how it was loaded, so that
/// ``VipsImage/resizedInOnePass(_:alsoHalve:decoding:)`` can decode it with libjpeg-turbo
/// directly. ``MasterImage`` names one when its image is the file exactly as loaded.
package struct JPEGFile: Sendable, Equatable {
  /// The file (named in errors; read from disk unless ``bytes`` holds it).
  package var path: String
  /// The file's contents, when the image was loaded from memory: decoded from these bytes,
  /// never from the file at ``path`` (which may have changed since they were read).
  package var bytes: [UInt8]?
  /// Its shrink-on-load factor (1, 2, 4 or 8).
  package var shrink: Int
  /// How strictly damage was treated.
  package var failOn: FailOn
  /// The most pixels (width × height as stored) the file may have: the direct decoder
  /// refuses larger files after reading only the header.
  package var limitInputPixels: Int

  /// sharp's default limit, and the configuration's (`limit-input-pixels`).
  package static let defaultLimitInputPixels = 268_402_689

  package init(
    path: String, bytes: [UInt8]? = nil, shrink: Int = 1, failOn: FailOn = .warning,
    limitInputPixels: Int = JPEGFile.defaultLimitInputPixels
  ) {
    self.path = path
    self.bytes = bytes
    self.shrink = shrink
    self.failOn = failOn
    self.limitInputPixels = limitInputPixels
  }

  /// Whether libjpeg-turbo can hold the file to ``failOn`` itself: it tells warnings, not
  /// which of them are truncation, so only all-or-nothing strictness.
  var libjpegHonoursFailOn: Bool { failOn == .warning || failOn == .none }
}
