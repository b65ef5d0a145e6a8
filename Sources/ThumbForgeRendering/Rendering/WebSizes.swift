internal import ThumbForgeBasics
internal import ThumbForgeConfig
package import ThumbForgePlanning
internal import Vips

/// One encoded web size (``WebCandidate``), ready to be written.
package struct RenderedWebFile: Sendable {
  package var candidate: WebCandidate
  package var bytes: [UInt8]
  package var hash: String
}

/// The web sizes of a catalog file (``PlannedOutput/webSizes``): its finished pixels scaled
/// down to each planned width (never up: the plan keeps widths within the file's own),
/// flattened where the format has no alpha, encoded with the recipe's quality.
enum WebSizes {
  /// The web sizes of `image`, the catalog file's pixels as they are encoded.
  static func render(_ image: VipsImage, recipe: Recipe, candidates: [WebCandidate])
    throws(VipsError) -> [RenderedWebFile]
  {
    var files: [RenderedWebFile] = []
    var scaled: [PixelSize: VipsImage] = [:]
    for candidate in candidates {
      let size = candidate.pixelSize
      var sized: VipsImage
      if let done = scaled[size] {
        sized = done
      } else {
        sized = try image.resized(
          exactly: ResizeRequest(width: size.width, height: size.height, kernel: recipe.kernel))
        scaled[size] = sized
      }
      if sized.hasAlpha, let background = candidate.flatten {
        sized = try sized.flattened(background: [
          Double(background.red), Double(background.green), Double(background.blue),
        ])
      }
      let bytes = try sized.encoded(
        as: candidate.format,
        options: SaveOptions(
          quality: recipe.quality, stripMetadata: true, optimizeCoding: recipe.optimizeCoding))
      guard sized.width == size.width, sized.height == size.height else {
        throw VipsError(
          context: candidate.path,
          message:
            "internal error: rendered \(sized.width)x\(sized.height), planned \(size); please report it"
        )
      }
      if candidate.format == .avif { try checkReadable(bytes, path: candidate.path, size: size) }
      files.append(
        RenderedWebFile(candidate: candidate, bytes: bytes, hash: ContentHash.of(bytes)))
    }
    return files
  }

  /// The web sizes of a copied catalog file, from its bytes decoded upright in 8-bit sRGB.
  static func render(
    ofFile bytes: [UInt8], failOn: FailOn, recipe: Recipe, candidates: [WebCandidate]
  )
    throws(VipsError) -> [RenderedWebFile]
  {
    let image = try VipsImage.load(bytes: bytes, options: LoadOptions(failOn: failOn))
      .autoRotated().toSRGB8()
    return try render(image, recipe: recipe, candidates: candidates)
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
