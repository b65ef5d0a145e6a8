internal import CJPEG
internal import CPNG
internal import CVips
internal import CVipsHelpers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension VipsImage {
  /// Encodes the image into memory.
  /// - Throws: ``VipsError`` when the format is not built into this libvips, or encoding fails.
  package func encoded(as format: ImageFormat, options: SaveOptions = SaveOptions())
    throws(VipsError) -> [UInt8]
  {
    if format == .jpeg, let bytes = try jpegDirectly(options) { return bytes }
    if format == .png, let bytes = try pngDirectly(options) { return bytes }
    let name = format.saverName + "_buffer"
    // Not `canSave`: for AVIF that asks ``AVIFProbe``, which encodes through here.
    guard Vips.hasOperation(name) else {
      throw VipsError(
        context: name, message: "\(format.rawValue) output is not supported by this libvips build")
    }
    var arguments = saverArguments(name, format, options)
    arguments.pairs.insert(("in", .image(try savedImage(options))), at: 0)
    let bytes = try VipsOperation.bytes(name, arguments)
    return format == .webp && options.stripMetadata ? try Self.webpStripped(bytes) : bytes
  }

  /// `webp` without its EXIF and XMP chunks: libvips 8.14's `webpsave` writes EXIF (the
  /// master's, GPS position included, or a default block) even with `strip`.
  static func webpStripped(_ webp: [UInt8]) throws(VipsError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = webp.withUnsafeBufferPointer {
      cvips_webp_strip($0.baseAddress, $0.count, &out, &size)
    }
    guard status == 0, let out else {
      throw VipsError(context: "webpsave", message: "cannot remove the metadata of the WebP file")
    }
    defer { cvips_webp_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }

  /// Encodes the image to a file (not atomically: ThumbForge writes buffers itself).
  package func save(path: String, as format: ImageFormat, options: SaveOptions = SaveOptions())
    throws(VipsError)
  {
    let direct =
      switch format {
      case .jpeg: try jpegDirectly(options)
      case .png: try pngDirectly(options)
      case .webp where options.stripMetadata: try encoded(as: .webp, options: options)
      default: nil as [UInt8]?
      }
    if let bytes = direct {
      // The same bytes as ``encoded(as:options:)``.
      guard let file = fopen(path, "wb") else {
        throw VipsError(context: path, message: String(cString: strerror(errno)))
      }
      let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      guard fclose(file) == 0, written == bytes.count else {
        throw VipsError(context: path, message: "could not write the file")
      }
      return
    }
    let name = format.saverName
    var arguments = saverArguments(name, format, options)
    arguments.pairs.insert(("filename", .string(path)), at: 0)
    arguments.pairs.insert(("in", .image(try savedImage(options))), at: 0)
    do {
      try VipsOperation.run(name, arguments)
    } catch {
      throw VipsError(context: path, message: error.message)
    }
  }

  /// The JPEG of a memory image encoded by libjpeg-turbo directly (see CJPEG.h), when the
  /// image is plain 8-bit sRGB or grey and neither metadata nor restart markers are asked
  /// for; nil otherwise.
  private func jpegDirectly(_ options: SaveOptions) throws(VipsError) -> [UInt8]? {
    let plain =
      (bands == 3 && interpretation == .srgb) || (bands == 1 && interpretation == .bw)
    guard options.stripMetadata, !keepsProfile(options), options.restartInterval == 0, plain,
      self.format == .uchar,
      cvips_image_is_memory(pointer) != 0
    else { return nil }
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cjpeg_encode(
      cvips_image_data(pointer).assumingMemoryBound(to: UInt8.self), Int32(width),
      Int32(height), Int32(bands), cvips_image_line_bytes(pointer), Int32(options.quality),
      options.optimizeCoding ? 1 : 0, options.interlace ? 1 : 0, &out, &size, &message,
      message.count)
    guard status == 0, let out else {
      let text = String(nulTerminated: message)
      throw VipsError(context: "jpegsave", message: text)
    }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }

  /// The PNG of this image encoded by libpng on this thread (see CPNG.h): the bytes of
  /// libvips' pngsave, without its sink handing every strip between threads. When the image
  /// is plain 8-bit sRGB or grey (alpha or not), neither metadata nor interlacing is asked
  /// for, and it is in memory or small enough to be computed into memory here (4 MP); nil
  /// otherwise, for pngsave.
  private func pngDirectly(_ options: SaveOptions) throws(VipsError) -> [UInt8]? {
    let plain =
      ((bands == 3 || bands == 4) && interpretation == .srgb)
      || ((bands == 1 || bands == 2) && interpretation == .bw)
    let inMemory = cvips_image_is_memory(pointer) != 0
    guard options.stripMetadata, !keepsProfile(options), !options.interlace, plain,
      self.format == .uchar, vips_image_get_coding(pointer) == VIPS_CODING_NONE,
      (0...9).contains(options.compression), inMemory || width * height <= 1 << 22
    else { return nil }
    let pixels = try computedHere()
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cpng_encode(
      cvips_image_data(pixels.pointer).assumingMemoryBound(to: UInt8.self), Int32(width),
      Int32(height), Int32(bands), cvips_image_line_bytes(pixels.pointer),
      Int32(options.compression), vips_image_get_xres(pointer), vips_image_get_yres(pointer),
      &out, &size, &message, message.count)
    guard status == 0, let out else {
      throw VipsError(context: "pngsave", message: String(nulTerminated: message))
    }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }

  private func saverArguments(_ name: String, _ format: ImageFormat, _ options: SaveOptions)
    -> VipsArguments
  {
    var arguments: VipsArguments = [:]
    if options.stripMetadata {
      // libvips 8.15 replaced `strip` with `keep`; use whichever this build has. Without
      // `keep`, the profile is kept by not stripping an image that has nothing else (see
      // ``savedImage(_:)``).
      let profile = keepsProfile(options)
      if VipsOperation.has(name, argument: "keep") {
        arguments.append("keep", .string(profile ? "icc" : "none"))
      } else if !profile {
        arguments.append("strip", .bool(true))
      }
    }
    switch format {
    case .png:
      arguments.append("compression", .int(options.compression))
      arguments.append("interlace", .bool(options.interlace))
    case .jpeg:
      arguments.append("Q", .int(options.quality))
      arguments.append("optimize-coding", .bool(options.optimizeCoding))
      arguments.append("interlace", .bool(options.interlace))
      if options.restartInterval > 0 {
        arguments.append("restart-interval", .int(options.restartInterval))
      }
    case .webp:
      arguments.append("Q", .int(options.quality))
      arguments.append("lossless", .bool(options.lossless))
    case .heif:
      arguments.append("Q", .int(options.quality))
    case .avif:
      arguments.append("Q", .int(options.quality))
      arguments.append("compression", .string("av1"))
    }
    return arguments
  }

  /// Whether saving with `options` writes this image's ICC profile and nothing else.
  private func keepsProfile(_ options: SaveOptions) -> Bool {
    options.stripMetadata && options.keepProfile && hasICCProfile
  }

  /// The image a saver is given: itself, or a copy with no metadata but its profile when
  /// only the profile is to be kept.
  private func savedImage(_ options: SaveOptions) throws(VipsError) -> VipsImage {
    keepsProfile(options) ? try keepingOnlyProfile() : self
  }
}
