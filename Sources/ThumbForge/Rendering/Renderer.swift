public import Foundation
public import Vips

/// Renders the outputs of one job, decoding each master once (with shrink-on-load to the
/// largest size its outputs need) and deriving every output from that one image.
public struct Renderer: Sendable {
  public var folder: URL
  public var failOn: FailOn

  public init(folder: URL, failOn: FailOn = .warning) {
    self.folder = folder
    self.failOn = failOn
  }

  /// Renders `outputs` (each with its recipe); failures become problems, others still render.
  public func render(_ outputs: [(Recipe, PlannedOutput)], masters: [Master]) -> JobResult {
    var files: [RenderedFile] = []
    var problems: [Problem] = []
    let byPath = Dictionary(masters.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let grouped = Dictionary(grouping: outputs, by: { $0.1.master })
    for path in grouped.keys.sorted() {
      guard let master = byPath[path] else { continue }
      let work = grouped[path]!
      do {
        files += try render(work, master: master)
      } catch let error as VipsError {
        problems.append(Problem(path: path, reason: ErrorWording.describe(error)))
      } catch {
        problems.append(
          Problem(path: path, reason: "cannot read the file (\(error.localizedDescription))"))
      }
    }
    return JobResult(files: files, problems: problems)
  }

  private func render(_ work: [(Recipe, PlannedOutput)], master: Master) throws -> [RenderedFile] {
    let path = folder.appendingPathComponent(master.path).path
    var files: [RenderedFile] = []
    var toDecode: [(Recipe, PlannedOutput)] = []
    for (recipe, output) in work {
      if output.mode == .copy {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        files.append(RenderedFile(output: output, bytes: Array(data), hash: ContentHash.of(data)))
      } else {
        toDecode.append((recipe, output))
      }
    }
    guard !toDecode.isEmpty else { return files }
    if master.isVector {
      for (recipe, output) in toDecode {
        let scale = Double(output.resizeTo.width) / Double(master.pixelSize.width)
        let image = try VipsImage.load(
          path: path, options: LoadOptions(failOn: failOn, scale: scale))
        let upright = try prepare(image)
        let crop = recipe.kind.crops ? output.crop : nil
        let sized = try resize(upright, to: output.resizeTo, kernel: recipe.kernel, region: crop)
        files.append(try finish(sized, recipe: recipe, output: output))
      }
      return files
    }
    let needed = toDecode.reduce(PixelSize(width: 1, height: 1)) { size, item in
      PixelSize(
        width: max(size.width, item.1.resizeTo.width),
        height: max(size.height, item.1.resizeTo.height))
    }
    let shrink =
      ["jpg", "jpeg"].contains(master.fileExtension)
      ? Geometry.shrinkOnLoadFactor(source: master.pixelSize, needed: needed) : 1
    // Decode sequentially, then keep one upright sRGB copy in memory for every output. (A
    // random-access load is also decoded into memory, but libvips 8.14 resizes such images
    // several times slower: measured 1.2 s vs 0.18 s for one fit of a 21 MP photo.)
    let shared = toDecode.count > 1
    let loaded = try VipsImage.load(
      path: path, options: LoadOptions(access: .sequential, failOn: failOn, shrink: shrink))
    // Rotations and flips read out of order, which a sequential load cannot do: decode first.
    var base = try prepare(loaded.orientation == 1 ? loaded : loaded.copiedToMemory())
    if shared { base = try base.copiedToMemory() }
    let pyramid = Pyramid(base: base)
    // Outputs of the same size without a crop (a 1x variant and a fit into the same box)
    // share one resize.
    var resized: [ResizeKey: VipsImage] = [:]
    for (recipe, output) in toDecode {
      let source = toDecode.count > 1 ? try pyramid.source(for: output.resizeTo) : base
      let key = ResizeKey(size: output.resizeTo, kernel: recipe.kernel)
      let crop = recipe.kind.crops ? output.crop : nil
      let image: VipsImage
      if crop == nil, let shared = resized[key] {
        image = shared
      } else {
        image = try resize(source, to: output.resizeTo, kernel: recipe.kernel, region: crop)
        if crop == nil { resized[key] = image }
      }
      files.append(try finish(image, recipe: recipe, output: output))
    }
    return files
  }

  private struct ResizeKey: Hashable {
    var size: PixelSize
    var kernel: Kernel
  }

  /// Upright, 8-bit sRGB (alpha kept).
  private func prepare(_ image: VipsImage) throws(VipsError) -> VipsImage {
    try image.autoRotated().toSRGB8()
  }

  /// Shapes, flattens and encodes one output from `resized`: the master resized to the
  /// output's `resizeTo`, already cropped to `output.crop` when the recipe crops.
  private func finish(_ resized: VipsImage, recipe: Recipe, output: PlannedOutput)
    throws(VipsError) -> RenderedFile
  {
    var image = resized
    switch recipe.kind {
    case .variants:
      break
    case .fit:
      if recipe.pad
        && (image.width != output.pixelSize.width || image.height != output.pixelSize.height)
      {
        let color = recipe.background
        if color.alpha < 255 { image = try image.addingAlpha() }
        let background =
          image.hasAlpha
          ? [Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha)]
          : [Double(color.red), Double(color.green), Double(color.blue)]
        image = try image.embed(
          x: (output.pixelSize.width - image.width) / 2,
          y: (output.pixelSize.height - image.height) / 2,
          width: output.pixelSize.width, height: output.pixelSize.height, extend: .background,
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
    if image.hasAlpha && !output.format.supportsAlpha {
      let color = recipe.background
      image = try image.flattened(background: [
        Double(color.red), Double(color.green), Double(color.blue),
      ])
    }
    let bytes = try image.encoded(
      as: output.format,
      options: SaveOptions(quality: recipe.quality, stripMetadata: !recipe.keepMetadata))
    return RenderedFile(output: output, bytes: bytes, hash: ContentHash.of(bytes))
  }

  /// Resizes to exactly `size` and keeps `region` of it (all of it when nil), premultiplying
  /// alpha so transparent edges do not darken.
  private func resize(
    _ image: VipsImage, to size: PixelSize, kernel: Kernel, region crop: PixelRect?
  ) throws(VipsError) -> VipsImage {
    let region = crop.map { VipsRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    if image.hasAlpha && (image.width != size.width || image.height != size.height) {
      let resized = try image.premultiplied().resize(
        width: size.width, height: size.height, kernel: kernel, region: region)
      return try resized.unpremultiplied().cast(to: .uchar)
    }
    return try image.resize(width: size.width, height: size.height, kernel: kernel, region: region)
  }
}
