/// The decode strategy of a master, decided here and nowhere else: how each output's resize
/// is made from the file, given the requests of one job.
///
/// - A raster image with alpha is decoded into memory once and every resize is made from
///   that copy, premultiplied so transparent edges do not darken.
/// - An opaque raster image is never held whole: every resize is made while it is decoded
///   (``resizedInOnePass(_:alsoHalve:)``, strips, libjpeg-turbo's rows where it may), and
///   outputs under a sixth of its size come from a half-size copy made in the same pass and its
///   box-halved levels (``Pyramid``), when at least two of them can. On a large master,
///   the other outputs (those the pyramid would resize from the full-size image) are
///   resized from another whole-frame output at least 3/2 their size, when there is one
///   (``finerLevels(_:base:)``).
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
  /// are pipelines on the job's in-memory copy, to be finished on this thread.
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
    let distinct = Self.distinct(requests)
    let finer = Self.finerLevels(distinct, base: size)
    let remaining = requests.filter { finer[$0] == nil }
    let fromHalf = remaining.map { Pyramid.level(for: $0.size, base: size) > 0 }
    let halve = fromHalf.filter { $0 }.count >= 2
    let direct = Self.distinct(zip(remaining, fromHalf).filter { !(halve && $0.1) }.map(\.0))
    var (images, half) = try resizedInOnePass(direct, alsoHalve: halve)
    // Order for memory: the outputs made from the half-size copy first, so it can go; then
    // the pass's own results from the smallest up, each let go once encoded, so the largest
    // is encoded (JPEG's optimized coding buffers a whole image's coefficients) nearly alone.
    if let base = half {
      half = nil
      let pyramid = Pyramid(base: base, extent: (extent.width / 2, extent.height / 2))
      // The requests one level serves are made in one pass over it (its rows interleaved
      // once for all of them), then encoded and let go smallest first.
      var levels: [(source: VipsImage, extent: (Double, Double), requests: [ResizeRequest])] = []
      for request in Self.distinct(remaining) where !direct.contains(request) {
        let (source, extent) = try pyramid.source(for: request.size)
        if let index = levels.firstIndex(where: { $0.source === source }) {
          levels[index].requests.append(request)
        } else {
          levels.append((source, extent, [request]))
        }
      }
      for (source, extent, group) in levels {
        var made = try source.resizedInOnePass(group, alsoHalve: false, extent: extent).images
        try Self.serveSmallestFirst(group, &made, to: requests, then: use)
      }
    }
    // Then the outputs made from a larger output of the pass, in one pass over it each.
    for level in direct where finer.values.contains(level) {
      let group = distinct.filter { finer[$0] == level }
      let source = images[direct.firstIndex(of: level)!]
      var made = try source.resizedInOnePass(group, alsoHalve: false).images
      try Self.serveSmallestFirst(group, &made, to: requests, then: use)
    }
    try Self.serveSmallestFirst(direct, &images, to: requests, then: use)
  }

  /// The finer level of each request that has one: a whole-frame resize (no region, the
  /// same kernel) made from the file in the same job and at least ``finerGap`` times the
  /// request's size on both axes, from which the request is resized instead of from the
  /// file. Only requests the pyramid would resize from the full-size image have one (those
  /// over a sixth of the master: a photo's 1x variant, and fills, fits and tiles that
  /// large); smaller ones keep their box-halved level, which is cheaper still, and whose
  /// files come out smaller (a resize of a Lanczos-3 resize keeps a little more of the
  /// highest frequencies). The difference from a resize of the whole decode is far below
  /// what JPEG encoding changes. Levels are never chained: a level is
  /// made from the file (of `base` pixels), never from the half-size copy.
  package static func finerLevels(
    _ distinct: [ResizeRequest], base: (width: Int, height: Int)
  ) -> [ResizeRequest: ResizeRequest] {
    guard base.width * base.height >= finerLevelMinimumPixels else { return [:] }
    var levels: [ResizeRequest] = []
    var finer: [ResizeRequest: ResizeRequest] = [:]
    let largestFirst = distinct.sorted { $0.width * $0.height > $1.width * $1.height }
    // Requests the pyramid serves from its half-size copy neither get a level nor are one.
    for request in largestFirst where Pyramid.level(for: request.size, base: base) == 0 {
      let level = levels.last { level in
        level.kernel == request.kernel
          && level.width * finerGap.denominator >= request.width * finerGap.numerator
          && level.height * finerGap.denominator >= request.height * finerGap.numerator
      }
      if let level {
        finer[request] = level
      } else if request.region == nil && request.kernel != .nearest {
        levels.append(request)
      }
    }
    return finer
  }

  /// The parameters that decide which image each resize of a job starts from (the
  /// half-size copy's gap, the finer levels' gap and smallest master), part of every
  /// imageset's key: changing one changes the bytes of outputs, so catalogs built before are
  /// re-rendered.
  package static var strategyKey: String {
    "half-gap=\(Pyramid.gap) finer-gap=\(finerGap.numerator)/\(finerGap.denominator)"
      + " finer-min=\(finerLevelMinimumPixels) finer-for=full-size-resizes"
  }

  /// How many times larger than an output a finer level must be on each axis (3/2), chosen
  /// with `Scripts/bench/derived_quality.py`, which compares builds with and without finer
  /// levels against a resize of the whole image (see ``finerLevels(_:base:)``).
  package static let finerGap = (numerator: 3, denominator: 2)

  /// Finer levels are only used for files of at least this many pixels (4 MP, after
  /// shrink-on-load): below it a pass over the file is cheap, and an app's small masters
  /// (flags, icons) keep the pixels of a resize of the file itself.
  package static let finerLevelMinimumPixels = 4_000_000

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
  /// transparent edges do not darken, and rounding back to 8 bits to nearest (libvips'
  /// cast alone truncates, darkening every resized value by half a step on average).
  package func resized(exactly request: ResizeRequest) throws(VipsError) -> VipsImage {
    let (width, height) = (request.width, request.height)
    if hasAlpha && (self.width != width || self.height != height) {
      let resized = try premultiplied().resize(
        width: width, height: height, kernel: request.kernel, region: request.region)
      return try resized.unpremultiplied().rounded().cast(to: .uchar)
    }
    return try resize(width: width, height: height, kernel: request.kernel, region: request.region)
  }
}

extension ResizeRequest {
  /// The size the image is resized to (before the region is kept).
  var size: (width: Int, height: Int) { (width, height) }
}
