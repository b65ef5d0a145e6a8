/// Options for opening an image; each is passed only to loaders that support it.
public struct LoadOptions: Sendable, Equatable {
  /// Pixel access pattern.
  public var access: AccessMode
  /// Failure threshold for damaged files.
  public var failOn: FailOn
  /// Page (frame) to load from multi-page files.
  public var page: Int?
  /// JPEG shrink-on-load factor: 1, 2, 4 or 8.
  public var shrink: Int?
  /// Render scale for vector and scalable formats (SVG, PDF, WebP).
  public var scale: Double?
  /// Render resolution for PDF and SVG, in dots per inch.
  public var dpi: Double?
  /// With random access: decode into memory, never into a temporary file on disk.
  public var memory: Bool

  public init(
    access: AccessMode = .random, failOn: FailOn = .warning, page: Int? = nil,
    shrink: Int? = nil, scale: Double? = nil, dpi: Double? = nil, memory: Bool = false
  ) {
    self.access = access
    self.failOn = failOn
    self.page = page
    self.shrink = shrink
    self.scale = scale
    self.dpi = dpi
    self.memory = memory
  }
}
