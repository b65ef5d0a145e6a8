internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import Vips

/// A single picture of every output of a build, labelled, for a person to eyeball a run.
enum ContactSheet {
  /// Renders the outputs listed in `manifest` (files under `catalog`) into a PNG at `url`.
  static func write(manifest: Manifest, catalog: URL, to url: URL, cell: Int = 180) throws {
    // Carried sets are the team's own files, some not images (colours, data).
    let outputs = manifest.imageSets.filter { !$0.isCarried }.flatMap(\.outputs)
    guard !outputs.isEmpty else { return }
    let checker = try checkerboard(width: cell, height: cell - labelHeight)
    var tiles: [VipsImage] = []
    for output in outputs {
      tiles.append(try tile(for: output, catalog: catalog, cell: cell, checker: checker))
    }
    let across = min(8, tiles.count)
    let sheet = try VipsImage.grid(
      tiles, across: across, shim: 4, background: [255, 255, 255, 255])
    try AtomicFile.write(try sheet.encoded(as: .png), to: url.path)
  }

  private static let labelHeight = 40

  private static func tile(for output: ManifestOutput, catalog: URL, cell: Int, checker: VipsImage)
    throws -> VipsImage
  {
    // Shrunk on load and never enlarged, so a 3x photo is not decoded whole for a thumbnail.
    let box = PixelSize(width: cell - 8, height: cell - labelHeight - 8)
    let thumb = try VipsImage.thumbnail(
      path: catalog.appendingPathComponent(output.path).path, width: box.width,
      height: box.height, size: .down
    ).toSRGB8().addingAlpha()
    let fitted = PixelSize(width: thumb.width, height: thumb.height)
    // The checkerboard shows transparency.
    var tile = try checker.composite(
      thumb, mode: .over, x: (cell - fitted.width) / 2, y: (cell - labelHeight - fitted.height) / 2)
    tile = try tile.embed(
      x: 0, y: 0, width: cell, height: cell, extend: .background, background: [255, 255, 255, 255])
    let name = (output.path as NSString).lastPathComponent
    let folder = ((output.path as NSString).deletingLastPathComponent as NSString).lastPathComponent
      .replacingOccurrences(of: ".imageset", with: "")
    let label = "\(escape(folder))\n\(escape(name)) \(output.width)x\(output.height)"
    let text = try VipsImage.text(label, width: cell - 6, dpi: 60)
    let ink = try VipsImage.solid(width: text.width, height: text.height, color: [0, 0, 0])
      .bandjoin([text])
    // Made now: a lazy tile would hold its file's decoder until the whole sheet is written.
    return try tile.composite(ink, mode: .over, x: 3, y: cell - labelHeight + 2).copiedToMemory()
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
