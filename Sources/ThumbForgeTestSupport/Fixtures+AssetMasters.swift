package import Vips

/// Cheap masters for asset folders that tests build and render: photos, icons and SVGs.
extension Fixtures {
  /// A photo-like RGB image: nested coloured rectangles on a background, varied by `seed`
  /// (two `embed`s: cheap to make even by the hundred).
  package static func photo(width: Int, height: Int, seed: Int) throws -> VipsImage {
    let a = Double((seed * 37) % 256)
    let b = Double((seed * 91 + 60) % 256)
    let c = Double((seed * 53 + 120) % 256)
    let inner = try VipsImage.solid(
      width: max(1, width / 4), height: max(1, height / 4), color: [c, a, b])
    let middle = try inner.embed(
      x: (seed * 7) % max(1, width / 4), y: (seed * 5) % max(1, height / 4),
      width: max(1, width / 2), height: max(1, height / 2), background: [b, c, a])
    return try middle.embed(
      x: (seed * 13) % max(1, width / 2), y: (seed * 11) % max(1, height / 2), width: width,
      height: height, background: [a, b, c])
  }

  /// An RGBA image: an opaque coloured square, half the size, centred on transparency.
  package static func icon(width: Int, height: Int, seed: Int) throws -> VipsImage {
    let clear = try VipsImage.solid(width: width, height: height, color: [0, 0, 0, 0])
    let square = try VipsImage.solid(
      width: width / 2, height: height / 2,
      color: [Double((seed * 41) % 256), Double((seed * 97) % 256), 200, 255])
    return try clear.composite(square, x: width / 4, y: height / 4)
  }

  /// A striped SVG of `width`×`height` points: one horizontal band per colour, top down.
  package static func svg(width: Int, height: Int, colors: [String]) -> String {
    let band = Double(height) / Double(max(1, colors.count))
    let rects = colors.enumerated().map { index, color in
      "<rect x=\"0\" y=\"\(Double(index) * band)\" width=\"\(width)\" height=\"\(band)\" fill=\"\(color)\"/>"
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)">
      \(rects.joined(separator: "\n"))
      </svg>

      """
  }

  /// A one-page PDF of `width`×`height` points filled with an RGB colour (components 0–1);
  /// its cross-reference table is left to the reader to rebuild, as poppler does.
  package static func pdf(width: Int, height: Int, color: String = "1 0 0") -> String {
    let drawing = "\(color) rg 0 0 \(width) \(height) re f"
    return """
      %PDF-1.4
      1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
      2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
      3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents 4 0 R >> endobj
      4 0 obj << /Length \(drawing.utf8.count) >> stream
      \(drawing)
      endstream endobj
      trailer << /Root 1 0 R >>
      %%EOF

      """
  }
}
