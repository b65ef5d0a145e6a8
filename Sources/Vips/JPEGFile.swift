/// A JPEG file an image was loaded from, and how it was loaded: see
/// ``VipsImage/resizedInOnePass(_:alsoHalve:decoding:)``.
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
}
