internal import CResample
internal import CVips
internal import CVipsHelpers

extension VipsImage {
  /// Resizes to exactly `width` × `height` pixels and returns `region` of the result (the
  /// whole result when `nil`), computing only the pixels of that region.
  ///
  /// Opaque 8-bit images go through ThumbForge's own vectorised resampler (the same kernels,
  /// faster than libvips 8.14's `reduce`, see docs/performance.md; integer-only so every CPU
  /// gives the same bytes); the result is a memory image. Float images (premultiplied
  /// colour with alpha) are enlarged by its float variant with the same kernel, because
  /// libvips 8.14's `resize` enlarges bicubically whatever the kernel. Anything else
  /// (reductions of those, 16-bit, the nearest kernel) uses libvips' `resize` and
  /// `extract_area`.
  package func resize(
    width: Int, height: Int, kernel: Kernel = .lanczos3, region: VipsRect?
  ) throws(VipsError) -> VipsImage {
    let area = try ResizeRequest(width: width, height: height, kernel: kernel, region: region)
      .checkedArea()
    if width == self.width && height == self.height {
      return try crop(x: area.x, y: area.y, width: area.width, height: area.height)
    }
    if let native = kernel.resampleKernel, fitsFloatResampler,
      width > self.width || height > self.height
    {
      return try floatResized(width: width, height: height, area: area, kernel: native)
    }
    guard let native = kernel.resampleKernel, fitsResampler else {
      return try resize(width: width, height: height, kernel: kernel)
        .crop(x: area.x, y: area.y, width: area.width, height: area.height)
    }
    let source = try copiedToMemory()
    let target = try CResize(request: ResizeRequest(width: width, height: height, region: area))
    let result = try Self.newMemoryImage(like: source, width: area.width, height: area.height)
    let status = cresample(
      cvips_image_data(source.pointer).assumingMemoryBound(to: UInt8.self),
      Int32(source.width), Int32(source.height), Int32(source.bands),
      cvips_image_line_bytes(source.pointer), target.width, target.height,
      target.x, target.y, target.areaWidth, target.areaHeight, native,
      cvips_image_data(result.pointer).assumingMemoryBound(to: UInt8.self))
    guard status == 0 else {
      throw VipsError(context: "resize", message: "out of memory resampling to \(width)x\(height)")
    }
    return result
  }
}

extension VipsImage {
  /// ``resize(width:height:kernel:region:)`` of a float image by ThumbForge's float
  /// resampler: `area` of the image scaled to `width` × `height`, as a memory image.
  fileprivate func floatResized(
    width: Int, height: Int, area: VipsRect, kernel: cresample_kernel
  ) throws(VipsError) -> VipsImage {
    let source = try copiedToMemory()
    let target = try CResize(request: ResizeRequest(width: width, height: height, region: area))
    let result = try Self.newMemoryImage(like: source, width: area.width, height: area.height)
    let floatBytes = MemoryLayout<Float>.size
    let status = cresample_float(
      cvips_image_data(source.pointer).assumingMemoryBound(to: Float.self),
      Int32(source.width), Int32(source.height), Int32(source.bands),
      cvips_image_line_bytes(source.pointer) / floatBytes, target.width, target.height,
      target.x, target.y, target.areaWidth, target.areaHeight, kernel,
      cvips_image_data(result.pointer).assumingMemoryBound(to: Float.self))
    guard status == 0 else {
      throw VipsError(context: "resize", message: "out of memory resampling to \(width)x\(height)")
    }
    return result
  }

  /// Halves the image with a 2×2 box filter (an odd last row or column is dropped), as
  /// libvips' `shrink(2)` does; for opaque 8-bit images in ThumbForge's own code, which is
  /// faster than libvips 8.14's. The result is a memory image.
  package func halved() throws(VipsError) -> VipsImage {
    guard width >= 2, height >= 2 else {
      throw VipsError(context: "shrink", message: "a \(width)x\(height) image cannot be halved")
    }
    guard fitsResampler else { return try shrink(by: 2).copiedToMemory() }
    let source = try copiedToMemory()
    let result = try Self.newMemoryImage(like: source, width: width / 2, height: height / 2)
    let status = cresample_halve(
      cvips_image_data(source.pointer).assumingMemoryBound(to: UInt8.self),
      Int32(source.width), Int32(source.height), Int32(source.bands),
      cvips_image_line_bytes(source.pointer),
      cvips_image_data(result.pointer).assumingMemoryBound(to: UInt8.self))
    guard status == 0 else {
      throw VipsError(context: "shrink", message: "cannot halve a \(width)x\(height) image")
    }
    return result
  }

  /// The rows computed or decoded at a time when an image is read from the top (a multiple
  /// of the resampler's strip): the resize-while-decoding pass and ``computedHere()``.
  fileprivate static let stripRows = Int(CRESAMPLE_STRIP_ROWS) * 8

  /// Whether ThumbForge's resampler takes the image: 8-bit, one to four bands, no alpha.
  fileprivate var fitsResampler: Bool { format == .uchar && !hasAlpha && (1...4).contains(bands) }

  /// Whether ThumbForge's float resampler takes the image: float, one to four bands.
  fileprivate var fitsFloatResampler: Bool { format == .float && (1...4).contains(bands) }

  /// This image's pixels in a new memory image computed on this thread, strip by strip (the
  /// image itself when it is in memory already): libvips' sinks hand every strip to a
  /// worker thread and wait for it, which for a small image costs more than its pixels.
  /// Checks ``RenderCancellation`` before each strip.
  package func computedHere() throws(VipsError) -> VipsImage {
    if cvips_image_is_memory(pointer) != 0 { return self }
    let out = try Self.newMemoryImage(like: self, width: width, height: height)
    let source = try StripSource(self, file: nil, strip: Self.stripRows)
    let line = cvips_image_line_bytes(out.pointer)
    let data = cvips_image_data(out.pointer).assumingMemoryBound(to: UInt8.self)
    for top in stride(from: 0, to: height, by: Self.stripRows) {
      try RenderCancellation.check("compute")
      let count = min(Self.stripRows, height - top)
      let (rows, stride) = try source.rows(top, count)
      for row in 0..<count {
        memcpy(data + (top + row) * line, rows + row * stride, line)
      }
    }
    return out
  }

  /// A new memory image with `like`'s header and metadata, ready to be filled.
  fileprivate static func newMemoryImage(like: VipsImage, width: Int, height: Int)
    throws(VipsError) -> VipsImage
  {
    try PixelCount.checkSides(width, height, "new_memory")
    guard
      let out = cvips_image_new_memory_like(like.pointer, Int32(width), Int32(height))
    else { throw VipsError.fromBuffer(context: "new_memory") }
    return VipsImage(owning: out)
  }
}

extension VipsImage {
  /// Makes every requested resize, and the half-size copy when asked, in one top-to-bottom
  /// pass over the image, so a sequentially loaded file is decoded once and never held
  /// whole in memory: each strip of rows feeds every resize as it is decoded.
  ///
  /// Images the resampler cannot take (alpha, not 8-bit, the nearest kernel) are rendered
  /// into memory first and resized one by one with the same results as
  /// ``resize(width:height:kernel:region:)``. The results are memory images.
  ///
  /// `file` names the JPEG file this image was loaded from, when it was loaded with those
  /// options and not transformed since: its rows are then decoded with libjpeg-turbo
  /// directly (the same pixels, without the cost of libvips' line cache).
  ///
  /// `extent` is how many of this image's pixels the picture spans (nil: its size), when
  /// it is a copy reduced by a factor that does not divide the picture's size
  /// (``MasterImage/extent``, a box-halved level): the resizes map onto it, so none is
  /// stretched. Images the resampler cannot take are resized as if it were their size.
  package func resizedInOnePass(
    _ requests: [ResizeRequest], alsoHalve: Bool, decoding file: JPEGFile? = nil,
    extent: (width: Double, height: Double)? = nil
  ) throws(VipsError) -> (images: [VipsImage], half: VipsImage?) {
    for request in requests { _ = try request.checkedArea() }
    let streamable =
      fitsResampler && width >= 2 && height >= 2
      && requests.allSatisfy { $0.kernel.resampleKernel != nil }
    guard streamable else {
      let whole = try copiedToMemory()
      var images: [VipsImage] = []
      for request in requests {
        images.append(
          try whole.resize(
            width: request.width, height: request.height, kernel: request.kernel,
            region: request.region))
      }
      return (images, alsoHalve ? try whole.halved() : nil)
    }
    return try streamResizes(
      requests, alsoHalve: alsoHalve, decoding: file,
      extent: extent ?? (Double(width), Double(height)))
  }

  private func streamResizes(
    _ requests: [ResizeRequest], alsoHalve: Bool, decoding file: JPEGFile?,
    extent: (width: Double, height: Double)
  ) throws(VipsError) -> (images: [VipsImage], half: VipsImage?) {
    var images: [VipsImage] = []
    var streams: [OpaquePointer?] = []
    defer { streams.forEach { cresample_stream_free($0) } }
    for request in requests {
      let area = request.area
      let target = try CResize(request: request)
      let image = try Self.newMemoryImage(like: self, width: area.width, height: area.height)
      guard
        let stream = cresample_stream_new_extent(
          Int32(width), Int32(height), extent.width, extent.height, Int32(bands),
          target.width, target.height,
          target.x, target.y, target.areaWidth, target.areaHeight,
          request.kernel.resampleKernel!,
          cvips_image_data(image.pointer).assumingMemoryBound(to: UInt8.self))
      else {
        throw VipsError(
          context: "resize",
          message: "out of memory resampling to \(request.width)x\(request.height)")
      }
      images.append(image)
      streams.append(stream)
    }
    let half =
      alsoHalve ? try Self.newMemoryImage(like: self, width: width / 2, height: height / 2) : nil
    let source = try StripSource(self, file: file, strip: Self.stripRows)
    for top in stride(from: 0, to: height, by: Self.stripRows) {
      try RenderCancellation.check("resize")
      let rows = min(Self.stripRows, height - top)
      let (pixels, stride) = try source.rows(top, rows)
      if !streams.isEmpty {
        let status = streams.withUnsafeBufferPointer {
          cresample_streams_push(
            $0.baseAddress, Int32($0.count), pixels, stride, Int32(top), Int32(rows))
        }
        guard status == 0 else {
          throw VipsError(context: "resize", message: "the resampler refused rows \(top)…")
        }
      }
      if let half {
        _ = cresample_halve_strip(
          pixels, Int32(width), Int32(bands), stride, Int32(top), Int32(rows),
          cvips_image_data(half.pointer).assumingMemoryBound(to: UInt8.self))
      }
    }
    guard streams.allSatisfy({ cresample_stream_finished($0) != 0 }) else {
      throw VipsError(
        context: "resize", message: "the image ended before every resize was complete")
    }
    return (images, half)
  }
}

/// A resize's sizes as the resampler's 32-bit integers, checked once
/// (``PixelCount``): the image it stands for may be far larger than what is computed of it,
/// but no side may pass libvips' limit.
private struct CResize {
  var width: Int32
  var height: Int32
  var x: Int32
  var y: Int32
  var areaWidth: Int32
  var areaHeight: Int32

  init(request: ResizeRequest) throws(VipsError) {
    let area = request.area
    try PixelCount.checkSides(request.width, request.height, "resize")
    width = try PixelCount.int32(request.width, "resize")
    height = try PixelCount.int32(request.height, "resize")
    x = try PixelCount.int32(area.x, "resize")
    y = try PixelCount.int32(area.y, "resize")
    areaWidth = try PixelCount.int32(area.width, "resize")
    areaHeight = try PixelCount.int32(area.height, "resize")
  }
}

extension Kernel {
  /// The resampler's kernel, or nil for kernels only libvips has.
  fileprivate var resampleKernel: cresample_kernel? {
    switch self {
    case .nearest: nil
    case .linear: CRESAMPLE_LINEAR
    case .cubic: CRESAMPLE_CUBIC
    case .mitchell: CRESAMPLE_MITCHELL
    case .lanczos2: CRESAMPLE_LANCZOS2
    case .lanczos3: CRESAMPLE_LANCZOS3
    }
  }
}
