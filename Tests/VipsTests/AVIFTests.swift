import Testing

@testable import Vips

@Suite("AVIF encoding")
struct AVIFTests {
  @Test(
    "AVIF: an AV1 HEIF file that decodes to the same size; the same bytes every time",
    .enabled(if: Vips.canSave(.avif), "no AV1 encoder in libheif here"))
  func deterministic() throws {
    let image = try VipsImage.solid(width: 120, height: 80, color: [200, 40, 90])
    let first = try image.encoded(as: .avif, options: SaveOptions(quality: 60))
    let second = try image.encoded(as: .avif, options: SaveOptions(quality: 60))
    #expect(first == second)
    // `ftyp` brand `avif` (HEIF files say `heic`).
    #expect(Array(first[4..<12]) == Array("ftypavif".utf8))
    let decoded = try VipsImage.load(bytes: first)
    #expect(decoded.width == 120 && decoded.height == 80)
    let heic = try image.encoded(as: .heif, options: SaveOptions(quality: 60))
    #expect(heic != first)
  }
}
