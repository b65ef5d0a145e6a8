internal import CVips

/// An immutable libvips image that owns one reference and releases it exactly once.
///
/// libvips images are immutable once built and may be evaluated from many threads,
/// so the type is `Sendable`. Operations return new images; nothing mutates in place.
package final class VipsImage: Sendable {
  nonisolated(unsafe) let pointer: UnsafeMutablePointer<CVips.VipsImage>

  /// Takes ownership of one reference to `pointer`.
  init(owning pointer: UnsafeMutablePointer<CVips.VipsImage>) {
    self.pointer = pointer
  }

  deinit {
    g_object_unref(pointer)
  }

  /// Width in pixels.
  package var width: Int { Int(vips_image_get_width(pointer)) }
  /// Height in pixels.
  package var height: Int { Int(vips_image_get_height(pointer)) }
  /// Number of bands (channels), alpha included.
  package var bands: Int { Int(vips_image_get_bands(pointer)) }
  /// Whether the last band is alpha.
  package var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
  /// The pixel number format of each band.
  package var format: BandFormat { BandFormat(vips_image_get_format(pointer)) }
  /// How libvips interprets the bands (sRGB, CMYK, grey …).
  package var interpretation: Interpretation {
    Interpretation(vips_image_get_interpretation(pointer))
  }
  /// EXIF orientation 1–8 (1 when absent).
  package var orientation: Int { Int(cvips_get_int(pointer, "orientation", 1)) }
  /// Whether an ICC profile is embedded.
  package var hasICCProfile: Bool { vips_image_get_typeof(pointer, "icc-profile-data") != 0 }
  /// Whether the file carried metadata a build strips: EXIF, XMP, IPTC, or text comments
  /// (PNG text chunks, JPEG and GIF comments). The ICC profile is not counted here
  /// (``hasICCProfile``).
  package var hasMetadata: Bool {
    guard let fields = vips_image_get_fields(pointer) else { return false }
    defer { g_strfreev(fields) }
    var index = 0
    while let field = fields[index] {
      let name = String(cString: field)
      if Self.metadataPrefixes.contains(where: { name.hasPrefix($0) }) { return true }
      index += 1
    }
    return false
  }

  /// Header fields that hold a file's metadata (libvips' names).
  private static let metadataPrefixes = [
    "exif-", "xmp-data", "iptc-data", "png-comment-", "jpeg-comment", "gif-comment",
    "heif-comment",
  ]

  /// Number of pages (frames) in the file the image came from (1 when unknown).
  package var pageCount: Int { Int(cvips_get_int(pointer, "n-pages", 1)) }
  /// The loader that produced the image, such as `jpegload` or `svgload`, when known.
  package var loader: String? { stringField("vips-loader") }

  /// Reads a string header field.
  package func stringField(_ name: String) -> String? {
    guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
    // Not vips_image_get_string: for built-in fields such as "filename" it returns a
    // pointer into a GValue it has already freed. Copy the text while the value is alive.
    var value = GValue()
    guard vips_image_get(pointer, name, &value) == 0 else {
      vips_error_clear()
      return nil
    }
    defer { g_value_unset(&value) }
    if value.g_type == vips_ref_string_get_type() {
      return vips_value_get_ref_string(&value, nil).map { String(cString: $0) }
    }
    if value.g_type == cvips_type_string() {
      return g_value_get_string(&value).map { String(cString: $0) }
    }
    return nil
  }

  /// Reads an integer header field.
  package func intField(_ name: String) -> Int? {
    guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
    return Int(cvips_get_int(pointer, name, 0))
  }

  /// Sets an integer header field on a copy of the image (used to tag EXIF orientation).
  package func settingInt(_ name: String, _ value: Int) throws(VipsError) -> VipsImage {
    let narrow = try PixelCount.int32(value, name)
    let copy = try VipsOperation.image("copy", ["in": .image(self)])
    vips_image_set_int(copy.pointer, name, narrow)
    return copy
  }

  /// Removes a header field on a copy of the image.
  package func removingField(_ name: String) throws(VipsError) -> VipsImage {
    let copy = try VipsOperation.image("copy", ["in": .image(self)])
    vips_image_remove(copy.pointer, name)
    return copy
  }

  /// Renders the whole image into memory, so that it can be read many times at random.
  package func copiedToMemory() throws(VipsError) -> VipsImage {
    guard let out = vips_image_copy_memory(pointer) else {
      throw VipsError.fromBuffer(context: "copy_memory")
    }
    return VipsImage(owning: out)
  }

  /// Every pixel as 8-bit values, row by row, band-interleaved (casts when needed).
  /// Computed on this thread (``computedHere()``).
  package func pixelBytes() throws(VipsError) -> [UInt8] {
    let u8 = try (format == .uchar ? self : try cast(to: .uchar)).computedHere()
    let size = cvips_image_line_bytes(u8.pointer) * u8.height
    return Array(
      UnsafeBufferPointer(
        start: cvips_image_data(u8.pointer).assumingMemoryBound(to: UInt8.self), count: size))
  }

  /// The value of each band at one pixel.
  package func pixel(x: Int, y: Int) throws(VipsError) -> [Double] {
    try VipsOperation.doubles(
      "getpoint", ["in": .image(self), "x": .int(x), "y": .int(y)], output: "out-array")
  }
}
