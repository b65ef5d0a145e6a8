internal import Foundation
internal import Vips

/// Renders the outputs of one job, decoding each master once (with shrink-on-load to the
/// largest size its outputs need) and deriving every output from that one image.
struct Renderer: Sendable {
  var folder: URL
  var failOn: FailOn
  /// The configuration's limits, checked against each output's planned cost before its
  /// master is decoded, and (`limit-input-pixels`) again while decoding.
  var limits: RenderLimits
  /// Where raster masters stay decoded between renders (`serve`); nil: each render decodes
  /// its master while resizing it, never holding it whole (`build`). The bytes are the same.
  var decodedMasters: DecodedMasters?

  init(
    folder: URL, failOn: FailOn = .warning, limits: RenderLimits = RenderLimits(),
    decodedMasters: DecodedMasters? = nil
  ) {
    self.folder = folder
    self.failOn = failOn
    self.limits = limits
    self.decodedMasters = decodedMasters
  }

  /// Renders `outputs` (each with its recipe); failures become problems, others still render.
  /// An output over a limit (``RenderLimits``) is refused before anything is decoded.
  func render(_ outputs: [(Recipe, PlannedOutput)], masters: [Master]) -> JobResult {
    var files: [RenderedFile] = []
    var problems: [Problem] = []
    let byPath = Dictionary(masters.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let grouped = Dictionary(grouping: outputs, by: { $0.1.master })
    for path in grouped.keys.sorted() {
      guard let master = byPath[path] else { continue }
      var work: [(Recipe, PlannedOutput)] = []
      var refusals: [String] = []
      for item in grouped[path]! {
        if let refusal = limits.refusal(of: item.1) {
          refusals.append(refusal)
        } else {
          work.append(item)
        }
      }
      if let first = refusals.first {
        let more = refusals.count > 1 ? " (and \(refusals.count - 1) more outputs)" : ""
        problems.append(Problem(path: path, reason: first + more, kind: .tooLarge))
        if work.isEmpty { continue }
      }
      do {
        files += try render(work, master: master)
      } catch let error as VipsError {
        // Over a limit when decoded (the master changed since it was planned): as refused.
        problems.append(
          Problem(
            path: path, reason: ErrorWording.describe(error),
            kind: error.isOverLimit ? .tooLarge : .other))
      } catch {
        problems.append(
          Problem(path: path, reason: "cannot read the file (\(error.localizedDescription))"))
      }
    }
    return JobResult(files: files, problems: problems)
  }

  private func render(_ work: [(Recipe, PlannedOutput)], master: Master) throws -> [RenderedFile] {
    // Display P3 files come from a second decode of the master, converted to Display P3
    // instead of sRGB (only wide-gamut masters have them; an empty part decodes nothing).
    try DisplayGamut.allCases.flatMap { gamut in
      try render(work.filter { $0.1.slot.gamut == gamut }, master: master, in: gamut.profile)
    }.map { Self.asPlanned($0, work) }
  }

  /// `file` carrying its output exactly as planned (a crop decided while rendering is not
  /// part of the plan).
  static func asPlanned(_ file: RenderedFile, _ work: [(Recipe, PlannedOutput)]) -> RenderedFile {
    guard let planned = work.first(where: { $0.1.path == file.output.path })?.1 else {
      return file
    }
    var same = file
    same.output = planned
    return same
  }

  /// Renders `work` (all of it in `profile`'s colour space) from `master`.
  private func render(_ work: [(Recipe, PlannedOutput)], master: Master, in profile: RGBProfile)
    throws -> [RenderedFile]
  {
    let path = folder.appendingPathComponent(master.path).path
    let toDecode = try decidingEnlargedSmartCrops(
      work.filter { $0.1.mode != .copy }, master: master, in: profile)
    // Per-scale masters used as they are; read (and checked) after the decoding work so
    // their bytes are not alive during it.
    let copies = { () throws -> [RenderedFile] in
      let copied = work.filter { $0.1.mode == .copy }.map(\.1)
      guard !copied.isEmpty else { return [] }
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      let hash = try VerifiedCopy(master: master, failOn: failOn).check(bytes)
      return copied.map { RenderedFile(output: $0, bytes: bytes, hash: hash) }
    }
    guard !toDecode.isEmpty else { return try copies() }
    if master.isVector {
      var files: [RenderedFile] = []
      for (recipe, output) in toDecode {
        let scale = Double(output.resizeTo.width) / Double(master.pixelSize.width)
        let image = try VipsImage.load(
          path: path, options: LoadOptions(failOn: failOn, scale: scale))
        let upright = try prepare(image, in: profile)
        let crop = (recipe.kind.crops ? output.crop : nil)?.vipsRect
        let sized = try resize(upright, to: output.resizeTo, kernel: recipe.kernel, region: crop)
        files.append(try finish(sized, recipe: recipe, output: output, memo: EncodingMemo()))
      }
      return try copies() + files
    }
    let requests = toDecode.map { recipe, output in
      ResizeRequest(
        width: output.resizeTo.width, height: output.resizeTo.height, kernel: recipe.kernel,
        region: (recipe.kind.crops ? output.crop : nil)?.vipsRect)
    }
    // Decoded once, shrunk on load to the largest request, upright, 8-bit RGB in `profile`
    // (or that image, held from an earlier render).
    let opened = try MasterImage(
      path: path, resizes: requests, failOn: failOn, limitInputPixels: limits.inputPixels,
      profile: profile)
    let decoded =
      try decodedMasters?.decoded(opened, master: master, profile: profile, failOn: failOn)
      ?? opened
    // Each output is encoded as soon as its resize exists, and the resize let go, so few
    // full-size buffers are alive at once.
    var encoded: [Int: RenderedFile] = [:]
    let memo = EncodingMemo()
    let encode = { (index: Int, image: VipsImage) throws(VipsError) in
      encoded[index] = try finish(
        image, recipe: toDecode[index].0, output: toDecode[index].1, memo: memo)
    }
    if decoded.image.hasAlpha {
      try resizeInMemory(decoded.image, requests, then: encode)
    } else {
      try resizeWhileDecoding(decoded, requests, then: encode)
    }
    return try copies() + toDecode.indices.compactMap { encoded[$0] }
  }

  /// Every resize of an opaque image, made while the image is decoded (see
  /// ``MasterImage/resizedInOnePass(_:alsoHalve:)``): the master is never held whole. Calls
  /// `then` with each request's index and image, once per request.
  ///
  /// Outputs much smaller than the master (under half of it, by Pyramid's gap) come from
  /// a half-size copy made in the same pass, when there are at least two of them.
  private func resizeWhileDecoding(
    _ decoded: MasterImage, _ requests: [ResizeRequest],
    then use: (Int, VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    let size = PixelSize(width: decoded.image.width, height: decoded.image.height)
    let fromHalf = requests.map { Pyramid.level(for: $0.size, base: size) > 0 }
    let halve = fromHalf.filter { $0 }.count >= 2
    let direct = distinct(zip(requests, fromHalf).filter { !(halve && $0.1) }.map(\.0))
    var (images, half) = try decoded.resizedInOnePass(direct, alsoHalve: halve)
    // Order for memory: the outputs made from the half-size copy first, so it can go; then
    // the pass's own results from the smallest up, each let go once encoded, so the largest
    // is encoded (JPEG's optimized coding buffers a whole image's coefficients) nearly alone.
    if let base = half {
      half = nil
      let pyramid = Pyramid(base: base)
      // The requests one level serves are made in one pass over it (its rows interleaved
      // once for all of them), then encoded and let go smallest first.
      var levels: [(source: VipsImage, requests: [ResizeRequest])] = []
      for request in distinct(requests) where !direct.contains(request) {
        let source = try pyramid.source(for: request.size)
        if let index = levels.firstIndex(where: { $0.source === source }) {
          levels[index].requests.append(request)
        } else {
          levels.append((source, [request]))
        }
      }
      for (source, group) in levels {
        var made = try source.resizedInOnePass(group, alsoHalve: false).images
        try serveSmallestFirst(group, &made, to: requests, then: use)
      }
    }
    try serveSmallestFirst(direct, &images, to: requests, then: use)
  }

  /// Hands each of `images` (made for `distinct`, in that order) to `use` as ``serve``
  /// does, smallest first. Takes the images out of the array, so each is let go once
  /// handed over.
  private func serveSmallestFirst(
    _ distinct: [ResizeRequest], _ images: inout [VipsImage], to requests: [ResizeRequest],
    then use: (Int, VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    var made = Dictionary(uniqueKeysWithValues: zip(distinct, images))
    images = []
    let bySize = distinct.sorted {
      $0.area.width * $0.area.height < $1.area.width * $1.area.height
    }
    try serve(bySize, to: requests, then: use) { made.removeValue(forKey: $0)! }
  }

  /// Every resize of an image with alpha, from one in-memory copy, premultiplied so
  /// transparent edges do not darken. Calls `then` as ``resizeWhileDecoding``.
  private func resizeInMemory(
    _ image: VipsImage, _ requests: [ResizeRequest],
    then use: (Int, VipsImage) throws(VipsError) -> Void
  ) throws(VipsError) {
    let whole = requests.count > 1 ? try image.copiedToMemory() : image
    try serve(distinct(requests), to: requests, then: use) { request throws(VipsError) in
      try resize(whole, to: request.size, kernel: request.kernel, region: request.region)
    }
  }

  /// Makes each of `distinct` once, in that order, and hands it to `use` with the index of
  /// every request asking for it; equal requests (a 1x variant and a fit into the same box)
  /// share one resize.
  private func serve(
    _ distinct: [ResizeRequest], to requests: [ResizeRequest],
    then use: (Int, VipsImage) throws(VipsError) -> Void,
    making make: (ResizeRequest) throws(VipsError) -> VipsImage
  ) throws(VipsError) {
    for request in distinct {
      let image = try make(request)
      for index in requests.indices where requests[index] == request {
        try use(index, image)
      }
    }
  }

  /// `requests` without repeats, in first-seen order.
  private func distinct(_ requests: [ResizeRequest]) -> [ResizeRequest] {
    var seen: Set<ResizeRequest> = []
    return requests.filter { seen.insert($0).inserted }
  }

  /// Upright, 8-bit RGB in `profile` (alpha kept), as ``MasterImage`` makes raster masters.
  private func prepare(_ image: VipsImage, in profile: RGBProfile = .sRGB) throws(VipsError)
    -> VipsImage
  {
    try image.autoRotated().toRGB8(profile)
  }

  /// Shapes, flattens and encodes one output from `resized`: the master resized to the
  /// output's `resizeTo`, already cropped to `output.crop` when the recipe crops.
  private func finish(
    _ resized: VipsImage, recipe: Recipe, output: PlannedOutput, memo: EncodingMemo
  ) throws(VipsError) -> RenderedFile {
    var image = resized
    switch recipe.kind {
    case .variants, .appicon:
      break  // an app icon's crop is made with its resize
    case .fit:
      // The padded canvas: the planned size, before a centred stroke grows it.
      let grow = recipe.canvasGrowth(scale: output.scale)
      let canvas = PixelSize(
        width: output.pixelSize.width - grow, height: output.pixelSize.height - grow)
      if recipe.pad && (image.width != canvas.width || image.height != canvas.height) {
        let color = recipe.background
        if color.alpha < 255 { image = try image.addingAlpha() }
        let background =
          image.hasAlpha
          ? [Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha)]
          : [Double(color.red), Double(color.green), Double(color.blue)]
        image = try image.embed(
          x: (canvas.width - image.width) / 2, y: (canvas.height - image.height) / 2,
          width: canvas.width, height: canvas.height, extend: .background,
          background: background)
      }
    case .fill, .tile, .flag:
      let box = recipe.size.pixels(scale: output.scale)
      if output.crop == nil {
        let interesting: Interesting = recipe.gravity == .entropy ? .entropy : .attention
        image = try image.smartCrop(width: box.width, height: box.height, interesting: interesting)
      }
    }
    if recipe.kind == .flag
      || (recipe.kind != .variants && (recipe.cornerRadius > 0 || recipe.strokeWidth > 0))
    {
      image = try FlagShape(recipe: recipe, scale: output.scale).apply(to: image)
    }
    if output.slot.appearance == .tinted {
      image = try image.colourspace(.bw)
    }
    if image.hasAlpha && (!output.format.supportsAlpha || output.isOpaque) {
      let color = recipe.background
      image = try image.flattened(background: [
        Double(color.red), Double(color.green), Double(color.blue),
      ])
    }
    // The plan decided the size (the manifest and Contents.json record it): hold to it.
    guard image.width == output.pixelSize.width, image.height == output.pixelSize.height else {
      throw VipsError(
        context: output.path,
        message:
          "internal error: rendered \(image.width)x\(image.height), planned \(output.pixelSize); please report it"
      )
    }
    let file = try memo.encoded(
      image, as: output.format,
      options: SaveOptions(
        quality: recipe.quality, stripMetadata: !recipe.keepMetadata,
        optimizeCoding: recipe.optimizeCoding,
        keepProfile: output.slot.gamut == .displayP3))
    if output.format == .heif || output.format == .avif {
      try Self.checkReadable(file.bytes, output: output)
    }
    return RenderedFile(output: output, bytes: file.bytes, hash: file.hash)
  }

  /// Decodes a HEIF (or AVIF) output back before it is shipped: libheif writes files it cannot read
  /// for some shapes (1×5000, 2×20000) and for sides over 16384 pixels, without an error.
  static func checkReadable(_ bytes: [UInt8], output: PlannedOutput) throws(VipsError) {
    do {
      _ = try VipsImage.load(bytes: bytes).average()
    } catch {
      throw VipsError(
        context: output.path,
        message:
          "the HEIF encoder wrote a \(output.pixelSize) file it cannot read back (\(error.message)); use another format for this recipe"
      )
    }
  }

  /// Resizes to exactly `size` and keeps `region` of it (all of it when nil), premultiplying
  /// alpha so transparent edges do not darken.
  private func resize(
    _ image: VipsImage, to size: PixelSize, kernel: Kernel, region: VipsRect?
  ) throws(VipsError) -> VipsImage {
    if image.hasAlpha && (image.width != size.width || image.height != size.height) {
      let resized = try image.premultiplied().resize(
        width: size.width, height: size.height, kernel: kernel, region: region)
      return try resized.unpremultiplied().cast(to: .uchar)
    }
    return try image.resize(width: size.width, height: size.height, kernel: kernel, region: region)
  }
}

extension ResizeRequest {
  /// The size the master is resized to (before the region is kept).
  fileprivate var size: PixelSize { PixelSize(width: width, height: height) }
}

extension PixelRect {
  /// The same rectangle for the Vips layer.
  fileprivate var vipsRect: VipsRect { VipsRect(x: x, y: y, width: width, height: height) }
}
