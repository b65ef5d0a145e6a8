/// The decode strategy of a master, decided here and nowhere else: how each output's resize
/// is made from the file, given the requests of one job.
///
/// - A raster image with alpha is decoded into memory once and every resize is made from
///   that copy, premultiplied so transparent edges do not darken.
/// - An opaque raster image is never held whole: every resize is made while it is decoded
///   (``resizedInOnePass(_:alsoHalve:)``, strips, libjpeg-turbo's rows where it may), and
///   outputs under half its size come from a half-size copy made in the same pass and its
///   box-halved levels (``Pyramid``), when at least two of them can.
/// - A vector master (SVG, PDF) is rasterised afresh at each output's size
///   (``rasterise(path:width:for:failOn:profile:then:)``): never resampled from a raster.
///
/// Shrink-on-load and the direct JPEG path are decided when the file is opened
/// (``init(path:resizes:failOn:limitInputPixels:profile:)``).
extension MasterImage {
  /// Makes every resize of `requests` and hands each to `use` once, with the indices of
  /// the requests asking for it (equal requests share one resize), as soon as it exists,
  /// so that few full-size buffers are alive at once. Call it once.
  ///
  /// An opaque master's resizes are memory images linked to no other; an alpha master's
  /// are pipelines on the job's in-memory copy, so `use` detaches one
  /// (``VipsImage/detached()``) before finishing it on another thread.
  package func resize(
    _ requests: [ResizeRequest], then use: ([Int], VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    if image.hasAlpha {
      try Self.resizeInMemory(image, requests, then: use)
    } else {
      try resizeWhileDecoding(requests, then: use)
    }
  }

  /// Renders the vector file at `path` (`width` pixels wide at scale 1) for each request,
  /// at the scale that gives the request's width, upright and 8-bit RGB in `profile`, and
  /// hands each result to `use` with the request's index.
  package static func rasterise(
    path: String, width: Int, for requests: [ResizeRequest], failOn: FailOn,
    profile: RGBProfile, then use: ([Int], VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    for (index, request) in requests.enumerated() {
      let scale = Double(request.width) / Double(width)
      let image = try VipsImage.load(path: path, options: LoadOptions(failOn: failOn, scale: scale))
      let upright = try image.autoRotated().toRGB8(profile)
      try use([index], try upright.resized(exactly: request))
    }
  }

  /// Every resize of this opaque image, made while it is decoded. Calls `use` as
  /// ``resize(_:then:)`` does.
  private func resizeWhileDecoding(
    _ requests: [ResizeRequest], then use: ([Int], VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    let size = (width: image.width, height: image.height)
    let fromHalf = requests.map { Pyramid.level(for: $0.size, base: size) > 0 }
    let halve = fromHalf.filter { $0 }.count >= 2
    let direct = Self.distinct(zip(requests, fromHalf).filter { !(halve && $0.1) }.map(\.0))
    var (images, half) = try resizedInOnePass(direct, alsoHalve: halve)
    // Order for memory: the outputs made from the half-size copy first, so it can go; then
    // the pass's own results from the smallest up, each let go once encoded, so the largest
    // is encoded (JPEG's optimized coding buffers a whole image's coefficients) nearly alone.
    if let base = half {
      half = nil
      let pyramid = Pyramid(base: base)
      // The requests one level serves are made in one pass over it (its rows interleaved
      // once for all of them), then encoded and let go smallest first.
      var levels: [(source: VipsImage, requests: [ResizeRequest])] = []
      for request in Self.distinct(requests) where !direct.contains(request) {
        let source = try pyramid.source(for: request.size)
        if let index = levels.firstIndex(where: { $0.source === source }) {
          levels[index].requests.append(request)
        } else {
          levels.append((source, [request]))
        }
      }
      for (source, group) in levels {
        var made = try source.resizedInOnePass(group, alsoHalve: false).images
        try Self.serveSmallestFirst(group, &made, to: requests, then: use)
      }
    }
    try Self.serveSmallestFirst(direct, &images, to: requests, then: use)
  }

  /// Hands each of `images` (made for `distinct`, in that order) to `use` as ``serve``
  /// does, smallest first. Takes the images out of the array, so each is let go once
  /// handed over.
  private static func serveSmallestFirst(
    _ distinct: [ResizeRequest], _ images: inout [VipsImage], to requests: [ResizeRequest],
    then use: ([Int], VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    var made = Dictionary(uniqueKeysWithValues: zip(distinct, images))
    images = []
    let bySize = distinct.sorted {
      $0.area.width * $0.area.height < $1.area.width * $1.area.height
    }
    try serve(bySize, to: requests, then: use) { made.removeValue(forKey: $0)! }
  }

  /// Every resize of an image with alpha, from one in-memory copy, premultiplied so
  /// transparent edges do not darken.
  private static func resizeInMemory(
    _ image: VipsImage, _ requests: [ResizeRequest],
    then use: ([Int], VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    let whole = requests.count > 1 ? try image.copiedToMemory() : image
    try serve(distinct(requests), to: requests, then: use) { request throws(VipsError) in
      try whole.resized(exactly: request)
    }
  }

  /// Makes each of `distinct` once, in that order, and hands it to `use` with the indices
  /// of the requests asking for it; equal requests (a 1x variant and a fit into the same
  /// box) share one resize.
  private static func serve(
    _ distinct: [ResizeRequest], to requests: [ResizeRequest],
    then use: ([Int], VipsImage) throws(VipsError) -> Void,
    making make: (ResizeRequest) throws(VipsError) -> VipsImage
  ) throws(VipsError) {
    for request in distinct {
      try use(requests.indices.filter { requests[$0] == request }, try make(request))
    }
  }

  /// `requests` without repeats, in first-seen order.
  private static func distinct(_ requests: [ResizeRequest]) -> [ResizeRequest] {
    var seen: Set<ResizeRequest> = []
    return requests.filter { seen.insert($0).inserted }
  }
}

extension VipsImage {
  /// Resized to exactly the request's size and cut to its region, premultiplying alpha so
  /// transparent edges do not darken.
  func resized(exactly request: ResizeRequest) throws(VipsError) -> VipsImage {
    let (width, height) = (request.width, request.height)
    if hasAlpha && (self.width != width || self.height != height) {
      let resized = try premultiplied().resize(
        width: width, height: height, kernel: request.kernel, region: request.region)
      return try resized.unpremultiplied().cast(to: .uchar)
    }
    return try resize(width: width, height: height, kernel: request.kernel, region: request.region)
  }
}

extension ResizeRequest {
  /// The size the image is resized to (before the region is kept).
  var size: (width: Int, height: Int) { (width, height) }
}
