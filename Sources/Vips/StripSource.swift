internal import CJPEG
internal import CVips

/// An image's rows, strip by strip from the top: decoded by libjpeg-turbo straight into a
/// strip buffer when the image is an untransformed JPEG load, otherwise computed through a
/// libvips region.
final class StripSource {
  private let image: VipsImage
  private var region: UnsafeMutablePointer<VipsRegion>?
  private var jpeg: OpaquePointer?
  private var buffer: UnsafeMutablePointer<UInt8>?
  /// The file's bytes libjpeg-turbo reads, when it decodes from memory: a copy of
  /// ``JPEGFile/bytes`` owned here, so its address stays valid while the decoder lives.
  private var encoded: UnsafeMutableBufferPointer<UInt8>?
  private let path: String?

  init(_ image: VipsImage, file: JPEGFile?, strip: Int) throws(VipsError) {
    self.image = image
    path = file?.path
    if let bytes = file?.bytes {
      let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
      _ = copy.initialize(from: bytes)
      encoded = UnsafeMutableBufferPointer(rebasing: copy[0..<bytes.count])
    }
    if let file, let opened = try Self.open(file, from: encoded, like: image) {
      jpeg = opened
      buffer = .allocate(capacity: image.width * image.bands * strip)
    } else {
      guard let made = vips_region_new(image.pointer) else {
        throw VipsError.fromBuffer(context: "region")
      }
      region = made
    }
  }

  deinit {
    if let jpeg { cjpeg_close(jpeg) }
    encoded?.baseAddress?.deallocate()
    buffer?.deallocate()
    if let region { g_object_unref(region) }
  }

  /// Rows [top, top + count): the first row's address and the distance between rows. Each
  /// call's rows stay valid until the next call.
  func rows(_ top: Int, _ count: Int) throws(VipsError) -> (UnsafePointer<UInt8>, Int) {
    if let jpeg, let buffer {
      let stride = image.width * image.bands
      var message = [CChar](repeating: 0, count: 256)
      guard cjpeg_read(jpeg, buffer, stride, Int32(count), &message, message.count) == 0 else {
        let text = String(nulTerminated: message)
        throw VipsError(context: path ?? "jpeg", message: text)
      }
      return (UnsafePointer(buffer), stride)
    }
    guard let region, cvips_region_prepare_rows(region, Int32(top), Int32(count)) == 0,
      let start = cvips_region_row(region, Int32(top))
    else {
      throw VipsError.fromBuffer(context: image.loader ?? "decode")
    }
    return (start.assumingMemoryBound(to: UInt8.self), cvips_region_stride(region))
  }

  /// The decoder for `file` (reading `encoded` when the file was loaded from memory), when
  /// it yields exactly `image`'s pixels; nil otherwise (the region then computes them).
  ///
  /// - Throws: ``VipsError`` naming the file when it has more pixels than
  ///   ``JPEGFile/limitInputPixels`` (refused after reading only the header).
  private static func open(
    _ file: JPEGFile, from encoded: UnsafeMutableBufferPointer<UInt8>?, like image: VipsImage
  ) throws(VipsError) -> OpaquePointer? {
    guard image.format == .uchar, image.bands == 3 || image.bands == 1,
      file.libjpegHonoursFailOn
    else { return nil }
    let strict: Int32 = file.failOn == .warning ? 1 : 0
    var status = CJPEG_OK
    var message = [CChar](repeating: 0, count: 256)
    let limit = UInt64(max(0, file.limitInputPixels))
    let decoder =
      if let encoded {
        cjpeg_open_memory(
          encoded.baseAddress, encoded.count, Int32(file.shrink), strict, limit, &status,
          &message, message.count)
      } else {
        cjpeg_open(
          file.path, Int32(file.shrink), strict, limit, &status, &message, message.count)
      }
    guard let opened = decoder else {
      if status == CJPEG_TOO_LARGE {
        throw VipsError(context: file.path, message: String(nulTerminated: message))
      }
      return nil
    }
    guard cjpeg_width(opened) == image.width, cjpeg_height(opened) == image.height,
      cjpeg_bands(opened) == image.bands
    else {
      cjpeg_close(opened)
      return nil
    }
    return opened
  }
}
