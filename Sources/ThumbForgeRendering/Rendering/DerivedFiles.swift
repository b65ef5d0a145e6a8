internal import ThumbForgeBasics
internal import ThumbForgeConfig
package import ThumbForgePlanning
internal import Vips

/// One encoded file of a destination beside the catalog (``DerivedFile``), ready to be
/// written.
package struct RenderedDerivedFile: Sendable {
  package var file: DerivedFile
  package var bytes: [UInt8]
  package var hash: String
}

/// The files derived from a catalog file (``PlannedOutput/derived``): its finished pixels
/// scaled down to each planned size (never up: the plan keeps sizes within the file's own),
/// flattened where the format has no alpha, encoded with the recipe's quality.
enum DerivedFiles {
  /// The files derived from `image`, the catalog file's pixels as they are encoded, held in
  /// memory (each size reads it again).
  static func render(_ image: VipsImage, recipe: Recipe, files: [DerivedFile])
    throws(VipsError) -> [RenderedDerivedFile]
  {
    var rendered: [RenderedDerivedFile] = []
    var scaled: [PixelSize: VipsImage] = [:]
    for file in files {
      if let text = file.text {
        let bytes = Array(text.utf8)
        rendered.append(RenderedDerivedFile(file: file, bytes: bytes, hash: ContentHash.of(bytes)))
        continue
      }
      let size = file.resizeTo
      var sized: VipsImage
      if let done = scaled[size] {
        sized = done
      } else {
        sized = try image.resized(
          exactly: ResizeRequest(width: size.width, height: size.height, kernel: recipe.kernel))
        scaled[size] = sized
      }
      sized = try finished(sized, file)
      if sized.hasAlpha, let background = file.flatten {
        sized = try sized.flattened(background: [
          Double(background.red), Double(background.green), Double(background.blue),
        ])
      }
      let bytes = try sized.encoded(
        as: file.format,
        options: SaveOptions(
          quality: recipe.quality, stripMetadata: true, optimizeCoding: recipe.optimizeCoding))
      guard sized.width == file.pixelSize.width, sized.height == file.pixelSize.height else {
        throw VipsError(
          context: file.path,
          message:
            "internal error: rendered \(sized.width)x\(sized.height), planned \(file.pixelSize); please report it"
        )
      }
      if file.format == .avif { try checkReadable(bytes, path: file.path, size: file.pixelSize) }
      rendered.append(RenderedDerivedFile(file: file, bytes: bytes, hash: ContentHash.of(bytes)))
    }
    return rendered
  }

  /// `resized` with the file's planned finish: masked, or centred on its transparent canvas
  /// (as it is, or as the white silhouette of its luminance).
  private static func finished(_ resized: VipsImage, _ file: DerivedFile) throws(VipsError)
    -> VipsImage
  {
    var image = resized
    switch file.finish {
    case .none: return image
    case .shape(let shape): return try shape.apply(to: image)
    case .inset: image = try image.addingAlpha()
    case .silhouette:
      // A shape on transparency is its alpha; an opaque greyscale icon's ink is its light.
      let ink =
        image.hasAlpha
        ? try image.extractBand(image.bands - 1).cast(to: .uchar)
        : try image.colourspace(.bw).extractBand(0).cast(to: .uchar)
      image = try VipsImage.solid(width: image.width, height: image.height, color: [255, 255, 255])
        .cast(to: .uchar).bandjoin([ink])
    }
    let canvas = file.pixelSize
    return try image.embed(
      x: (canvas.width - image.width) / 2, y: (canvas.height - image.height) / 2,
      width: canvas.width, height: canvas.height, extend: .background, background: [0, 0, 0, 0])
  }

  /// The files derived from a copied catalog file, from its bytes decoded upright in 8-bit
  /// sRGB.
  static func render(
    ofFile bytes: [UInt8], failOn: FailOn, recipe: Recipe, files: [DerivedFile]
  ) throws(VipsError) -> [RenderedDerivedFile] {
    let image = try VipsImage.load(bytes: bytes, options: LoadOptions(failOn: failOn))
      .autoRotated().toSRGB8()
    return try render(image, recipe: recipe, files: files)
  }

  /// `files` with the derived files rendered from their master (`rendered`, by path) among
  /// the ones made from their pixels, in the order of their plan.
  static func adding(_ rendered: [String: RenderedFile], to files: [RenderedFile])
    -> [RenderedFile]
  {
    guard !rendered.isEmpty else { return files }
    return files.map { file in
      var file = file
      let fromMaster = file.output.derived.compactMap { planned in
        rendered[planned.path].map {
          RenderedDerivedFile(file: planned, bytes: $0.bytes, hash: $0.hash)
        }
      }
      file.derived = inPlannedOrder(file.derived + fromMaster, of: file.output)
      return file
    }
  }

  /// `derived`, the rendered files of `output`'s plan, in the plan's order.
  static func inPlannedOrder(_ derived: [RenderedDerivedFile], of output: PlannedOutput)
    -> [RenderedDerivedFile]
  {
    let byPath = Dictionary(derived.map { ($0.file.path, $0) }, uniquingKeysWith: { a, _ in a })
    return output.derived.compactMap { byPath[$0.path] }
  }

  /// An AVIF file decoded back before it is written (see ``Renderer/checkReadable(_:output:)``).
  private static func checkReadable(_ bytes: [UInt8], path: String, size: PixelSize)
    throws(VipsError)
  {
    do {
      _ = try VipsImage.load(bytes: bytes).average()
    } catch {
      throw VipsError(
        context: path,
        message:
          "the AVIF encoder wrote a \(size) file it cannot read back (\(error.message)); leave avif out of web: formats"
      )
    }
  }
}
