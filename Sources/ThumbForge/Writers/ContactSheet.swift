internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import Vips

/// A single picture of every output of a build, labelled, for a person to eyeball a run.
enum ContactSheet {
  /// Renders the outputs listed in `manifest` (files under `catalog`; the files beside the
  /// catalog under `base`, the manifest's folder) into a PNG at `url`.
  static func write(manifest: Manifest, catalog: URL, base: URL, to url: URL, cell: Int = 180)
    throws
  {
    // Carried sets are the team's own files, some not images (colours, data).
    let sets = manifest.imageSets.filter { !$0.isCarried }
    guard sets.contains(where: { !$0.outputs.isEmpty }) else { return }
    let checker = try checkerboard(width: cell, height: cell - labelHeight)
    var tiles: [VipsImage] = []
    for set in sets {
      for output in set.outputs {
        tiles.append(
          try tile(
            at: catalog.appendingPathComponent(output.path), output.path,
            PixelSize(width: output.width, height: output.height), cell: cell, checker: checker))
      }
      // After its files, the set's placeholder (`placeholders: thumbhash`) as an app shows it.
      if let placeholder = try placeholderTile(of: set, cell: cell, checker: checker) {
        tiles.append(placeholder)
      }
      // Then its files beside the catalog (`web:`, `android:`), in the manifest's order.
      // (not an adaptive icon's XML, which is text).
      for file in set.derived.flatMap(\.files.files) where file.width > 0 {
        tiles.append(
          try tile(
            at: base.appendingPathComponent(file.path), file.path,
            PixelSize(width: file.width, height: file.height), cell: cell, checker: checker))
      }
    }
    let across = min(8, tiles.count)
    let sheet = try VipsImage.grid(
      tiles, across: across, shim: 4, background: [255, 255, 255, 255])
    try AtomicFile.write(try sheet.encoded(as: .png), to: url.path)
  }

  private static let labelHeight = 40

  /// The file at `url` (listed as `path`, of `size`), labelled with its folder, name and size.
  private static func tile(
    at url: URL, _ path: String, _ size: PixelSize, cell: Int, checker: VipsImage
  ) throws -> VipsImage {
    // Shrunk on load and never enlarged, so a 3x photo is not decoded whole for a thumbnail.
    let box = PixelSize(width: cell - 8, height: cell - labelHeight - 8)
    let thumb = try VipsImage.thumbnail(
      path: url.path, width: box.width, height: box.height, size: .down
    ).toSRGB8().addingAlpha()
    let name = (path as NSString).lastPathComponent
    let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
      .replacingOccurrences(of: ".imageset", with: "")
    return try labelled(
      thumb, "\(escape(folder))\n\(escape(name)) \(size.width)x\(size.height)", cell: cell,
      checker: checker)
  }

  /// `image` centred on the checkerboard (which shows transparency) above `label` (markup).
  private static func labelled(_ image: VipsImage, _ label: String, cell: Int, checker: VipsImage)
    throws -> VipsImage
  {
    var tile = try checker.composite(
      image, mode: .over, x: (cell - image.width) / 2, y: (cell - labelHeight - image.height) / 2)
    tile = try tile.embed(
      x: 0, y: 0, width: cell, height: cell, extend: .background, background: [255, 255, 255, 255])
    let text = try VipsImage.text(label, width: cell - 6, dpi: 60)
    let ink = try VipsImage.solid(width: text.width, height: text.height, color: [0, 0, 0])
      .bandjoin([text])
    // Made now: a lazy tile would hold its file's decoder until the whole sheet is written.
    return try tile.composite(ink, mode: .over, x: 3, y: cell - labelHeight + 2).copiedToMemory()
  }

  /// The set's ThumbHash decoded and stretched to its largest file's shape in the tile's box
  /// (an app shows it at the image's size); nil without one.
  private static func placeholderTile(of set: ManifestImageSet, cell: Int, checker: VipsImage)
    throws -> VipsImage?
  {
    guard let text = set.thumbHash, let hash = Data(base64Encoded: text),
      let picture = ThumbHash.decode(Array(hash)),
      let largest = set.outputs.max(by: { $0.width * $0.height < $1.width * $1.height })
    else { return nil }
    let box = PixelSize(width: cell - 8, height: cell - labelHeight - 8)
    let scale = min(
      1, Double(box.width) / Double(largest.width), Double(box.height) / Double(largest.height))
    let size = PixelSize(
      width: max(1, Int((Double(largest.width) * scale).rounded())),
      height: max(1, Int((Double(largest.height) * scale).rounded())))
    let image = try VipsImage.pixels(
      picture.rgba, width: picture.width, height: picture.height, bands: 4
    ).resize(width: size.width, height: size.height, kernel: .linear)
    let folder = ((set.folder as NSString).lastPathComponent as NSString).deletingPathExtension
    return try labelled(
      image, "\(escape(folder))\nplaceholder \(hash.count) bytes", cell: cell, checker: checker)
  }

  private static func checkerboard(width: Int, height: Int) throws -> VipsImage {
    let light = try VipsImage.solid(width: width, height: height, color: [235, 235, 235, 255])
    var board = light
    let square = try VipsImage.solid(width: 8, height: 8, color: [205, 205, 205, 255])
    var row = try light.crop(x: 0, y: 0, width: width, height: 8)
    for x in stride(from: 0, to: width, by: 16) {
      row = try row.composite(square, mode: .over, x: x, y: 0).copiedToMemory()
    }
    let shifted = try row.embed(x: 8, y: 0, width: width, height: 8, extend: .copy)
    for y in stride(from: 0, to: height, by: 8) {
      board = try board.composite((y / 8) % 2 == 0 ? row : shifted, mode: .over, x: 0, y: y)
        .copiedToMemory()
    }
    return try board.copiedToMemory()
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
