/// A JPEG file an image was loaded from, and how it was loaded, so that
/// ``VipsImage/resizedInOnePass(_:alsoHalve:decoding:)`` can decode it with libjpeg-turbo
/// directly. ``MasterImage`` names one when its image is the file exactly as loaded.
public struct JPEGFile: Sendable, Equatable {
  /// The file.
  public var path: String
  /// Its shrink-on-load factor (1, 2, 4 or 8).
  public var shrink: Int
  /// How strictly damage was treated.
  public var failOn: FailOn

  public init(path: String, shrink: Int = 1, failOn: FailOn = .warning) {
    self.path = path
    self.shrink = shrink
    self.failOn = failOn
  }

  /// Whether libjpeg-turbo can hold the file to ``failOn`` itself: it tells warnings, not
  /// which of them are truncation, so only all-or-nothing strictness.
  var libjpegHonoursFailOn: Bool { failOn == .warning || failOn == .none }
}
