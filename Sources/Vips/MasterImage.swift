/// An image file opened to be resized several ways at once: read top to bottom once, shrunk
/// while decoding as far as the largest resize allows, then turned upright and converted to
/// 8-bit sRGB (alpha kept).
///
/// The choices that depend on the file's codec are made here, from the loader libvips picks
/// for the file's contents (never from its name):
/// - Shrink-on-load: a JPEG is decoded at ½, ¼ or ⅛ size (libjpeg's scaled DCT) when that
///   still leaves twice every resize's pixels; other formats are decoded at full size (WebP's
///   `scale` on load would use libwebp's own scaler: other pixels than ours).
/// - Decoding: when ``image`` is the file's pixels exactly as loaded (upright and sRGB
///   already), ``resizedInOnePass(_:alsoHalve:)`` has libjpeg-turbo decode a JPEG's rows
///   straight into its strips; otherwise the rows are computed through a libvips region.
package struct MasterImage: Sendable {
  /// The pixels to resize: the file as loaded (shrunk by ``shrink``), upright, 8-bit sRGB.
  ///
  /// Loaded for one top-to-bottom read: make the resizes with one call to
  /// ``resizedInOnePass(_:alsoHalve:)``, or read it more than once only through
  /// ``VipsImage/copiedToMemory()``.
  package let image: VipsImage
  /// The factor the loader shrank the file by while decoding (1 when it did not).
  package let shrink: Int
  /// The picture's upright size in ``image``'s pixels: the file's size over ``shrink``.
  /// A JPEG shrunk by a factor that does not divide its size is decoded with a last row or
  /// column that covers less of the picture; every resize maps onto this extent, so none is
  /// stretched by that fraction of a pixel.
  package let extent: (width: Double, height: Double)
  /// The JPEG file ``image`` is exactly the pixels of, when libjpeg-turbo may decode it.
  let direct: JPEGFile?

  /// Opens the file at `path` for `resizes`: only the largest of them (its full `width` ×
  /// `height`, whatever its region) decides how far the file may be shrunk on load.
  /// Nothing is decoded yet beyond the header. A JPEG that shrinks has its header read twice,
  /// as libvips' `thumbnail` does: once for its size and orientation, once with the factor
  /// (cheap next to decoding a photo).
  ///
  /// `limitInputPixels` is the most pixels (width × height as stored) the file may have;
  /// a larger one is refused after reading only its header, here and again by the direct
  /// JPEG decoder (which does not rely on this check).
  ///
  /// `profile` is the colour space ``image`` is converted to: sRGB, or Display P3 for the
  /// wide-gamut files of a master whose profile reaches beyond sRGB.
  ///
  /// - Throws: ``VipsError`` naming the file when it is missing, not a known image, or over
  ///   `limitInputPixels`.
  package init(
    path: String, resizes: [ResizeRequest], failOn: FailOn = .warning,
    limitInputPixels: Int = JPEGFile.defaultLimitInputPixels, profile: RGBProfile = .sRGB
  ) throws(VipsError) {
    var options = LoadOptions(access: .sequential, failOn: failOn)
    var loaded = try VipsImage.load(path: path, options: options)
    try PixelCount.checkInput(loaded, limit: limitInputPixels, path: path)
    var shrink = 1
    let factor = Self.shrinkOnLoad(loaded, for: resizes)
    let stored = (width: Double(loaded.width), height: Double(loaded.height))
    let turned = loaded.orientation >= 5
    if factor > 1 {
      options.shrink = factor
      loaded = try VipsImage.load(path: path, options: options)
      shrink = factor
    }
    let size = turned ? (width: stored.height, height: stored.width) : stored
    try self.init(
      loaded: loaded, profile: profile,
      file: JPEGFile(
        path: path, shrink: shrink, failOn: failOn, limitInputPixels: limitInputPixels),
      extent: (size.width / Double(shrink), size.height / Double(shrink)))
  }

  /// `loaded` (the file as `file` says it was loaded) made upright and 8-bit RGB in
  /// `profile`; libjpeg-turbo decodes it directly when that changed nothing. `extent` is
  /// ``extent`` (nil: the upright image's size).
  private init(
    loaded: VipsImage, profile: RGBProfile, file: JPEGFile,
    extent: (width: Double, height: Double)? = nil
  ) throws(VipsError) {
    // Rotations and flips read out of order, which a sequential load cannot do: decode first.
    let upright = try (loaded.orientation == 1 ? loaded : loaded.copiedToMemory()).autoRotated()
    image = try upright.toRGB8(profile)
    shrink = file.shrink
    self.extent = extent ?? (Double(image.width), Double(image.height))
    direct = image === loaded && Self.isJPEG(loaded) && file.libjpegHonoursFailOn ? file : nil
  }

  /// A whole file's `bytes` opened for `resizes` exactly as
  /// ``init(path:resizes:failOn:limitInputPixels:profile:)`` opens the file (the same
  /// pixels, upright, 8-bit RGB in `profile`), decoded from these bytes only: the resizes
  /// read every row of it under `failOn` (an opaque image in their one pass, one with alpha
  /// into memory here), so the decode that feeds them also checks every pixel of a master
  /// shipped as-is. Nil when the resizes would let the file shrink on load
  /// (a JPEG whose resizes are all small enough): that decode would not read every pixel,
  /// so the caller decodes the file for the resizes and checks the bytes apart.
  ///
  /// - Throws: ``VipsError`` naming `path` when the bytes are not a known image or are over
  ///   `limitInputPixels`; a damaged file throws while it is resized.
  package static func openedWhole(
    bytes: [UInt8], path: String, resizes: [ResizeRequest], failOn: FailOn = .warning,
    limitInputPixels: Int = JPEGFile.defaultLimitInputPixels, profile: RGBProfile = .sRGB
  ) throws(VipsError) -> MasterImage? {
    let loaded = try VipsImage.load(
      bytes: bytes, options: LoadOptions(access: .sequential, failOn: failOn))
    try PixelCount.checkInput(loaded, limit: limitInputPixels, path: path)
    guard shrinkOnLoad(loaded, for: resizes) == 1 else { return nil }
    let opened = try MasterImage(
      loaded: loaded, profile: profile,
      file: JPEGFile(
        path: path, bytes: bytes, failOn: failOn, limitInputPixels: limitInputPixels))
    // With alpha, every resize is made from a copy in memory (``resize(_:then:)``): make it
    // now, so every pixel is read even when one resize needs only a region of the image.
    return opened.image.hasAlpha ? try opened.decodedToMemory() : opened
  }

  /// An image already decoded as ``init(path:resizes:failOn:limitInputPixels:profile:)``
  /// decodes (shrunk by `shrink`, upright, 8-bit RGB) and held in memory: resizing it gives
  /// the bytes resizing the file would, without decoding the file again.
  private init(decoded image: VipsImage, shrink: Int, extent: (width: Double, height: Double)) {
    self.image = image
    self.shrink = shrink
    self.extent = extent
    direct = nil
  }

  /// This image decoded into memory (the file read once, now), to be resized any number of
  /// times, giving the bytes resizing the file would.
  package func decodedToMemory() throws(VipsError) -> MasterImage {
    MasterImage(decoded: try image.copiedToMemory(), shrink: shrink, extent: extent)
  }

  /// An upright, 8-bit RGB image already in memory, as a master decoded at full size.
  package init(decoded image: VipsImage) {
    self.init(decoded: image, shrink: 1, extent: (Double(image.width), Double(image.height)))
  }

  /// This opening with `decoded`, the pixels ``decodedToMemory()`` gave for the same file
  /// opened the same way earlier, in place of decoding it again.
  package func reusing(decoded: VipsImage) -> MasterImage {
    MasterImage(decoded: decoded, shrink: shrink, extent: extent)
  }

  /// Whether ``resizedInOnePass(_:alsoHalve:)`` has libjpeg-turbo decode the file itself
  /// rather than reading ``image`` through libvips (the pixels are the same either way).
  package var decodesDirectly: Bool { direct != nil }

  /// Every requested resize of ``image``, and its half-size copy when asked, made in one
  /// top-to-bottom pass while the file is decoded, as
  /// ``VipsImage/resizedInOnePass(_:alsoHalve:)`` makes them. Call it once.
  package func resizedInOnePass(_ requests: [ResizeRequest], alsoHalve: Bool)
    throws(VipsError) -> (images: [VipsImage], half: VipsImage?)
  {
    try image.resizedInOnePass(requests, alsoHalve: alsoHalve, decoding: direct, extent: extent)
  }

  /// The factor `loaded` (a file's header, as stored) may be shrunk by while decoding so
  /// that the largest of `resizes` (its full size, whatever its region) is still made by a
  /// reduction of at least ``shrinkGap``: libjpeg's scaled DCT for a JPEG, 1 for every other format.
  private static func shrinkOnLoad(_ loaded: VipsImage, for resizes: [ResizeRequest]) -> Int {
    guard isJPEG(loaded) else { return 1 }
    let needed = resizes.reduce((width: 1, height: 1)) {
      (width: max($0.width, $1.width), height: max($0.height, $1.height))
    }
    // `needed` is upright; the header's size is as stored.
    let turned = loaded.orientation >= 5
    return jpegShrink(
      source: turned ? (loaded.height, loaded.width) : (loaded.width, loaded.height),
      needed: needed)
  }

  /// Whether libvips loaded `loaded` as a JPEG: `jpegload` from a file, `jpegload_buffer`
  /// from memory.
  private static func isJPEG(_ loaded: VipsImage) -> Bool {
    ["jpegload", "jpegload_buffer"].contains(loaded.loader)
  }

  /// The reduction a JPEG shrunk on load still leaves for the final resize (libvips'
  /// `thumbnail` leaves 2).
  static let shrinkGap = 2

  /// The largest JPEG shrink-on-load factor (1, 2, 4 or 8) that still leaves at least
  /// ``shrinkGap`` times `needed` pixels on both axes of a `source`-sized image (libjpeg
  /// rounds the scaled size up), as libvips' `thumbnail` does: libjpeg's scaled DCT aliases
  /// fine detail, so the final Lanczos resize is left at least that factor to filter it.
  package static func jpegShrink(
    source: (width: Int, height: Int), needed: (width: Int, height: Int)
  ) -> Int {
    var best = 1
    // libvips 8.14's JPEG loader aborts the process when the factor exceeds a side
    // ("bad dimensions"): never shrink a side below one whole pixel.
    for factor in [2, 4, 8] where factor <= min(source.width, source.height) {
      let width = (source.width + factor - 1) / factor
      let height = (source.height + factor - 1) / factor
      if width >= shrinkGap * needed.width && height >= shrinkGap * needed.height {
        best = factor
      }
    }
    return best
  }
}
