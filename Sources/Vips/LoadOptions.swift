/// Options for opening an image; each is passed only to loaders that support it.
package struct LoadOptions: Sendable, Equatable {
  /// Pixel access pattern.
  package var access: AccessMode
  /// Failure threshold for damaged files.
  package var failOn: FailOn
  /// Page (frame) to load from multi-page files.
  package var page: Int?
  /// JPEG shrink-on-load factor: 1, 2, 4 or 8.
  package var shrink: Int?
  /// Render scale for vector and scalable formats (SVG, PDF, WebP).
  package var scale: Double?
  /// Render resolution for PDF and SVG, in dots per inch.
  package var dpi: Double?
  /// With random access: decode into memory, never into a temporary file on disk.
  package var memory: Bool

  package init(
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
