internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgePlanning
internal import Vips

extension Renderer {
  /// The file of a carried set (the `as-is` recipe): the master's bytes as they are, or,
  /// unless `keepingMetadata`, its JPEG or PNG container without metadata (see
  /// ``withoutMetadata(_:)``). Never decoded to be re-encoded.
  /// - Throws: when the file cannot be read, or changed since it was planned.
  func carried(_ output: PlannedOutput, of master: Master, keepingMetadata: Bool) throws
    -> RenderedFile
  {
    let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(master.path)))
    guard ContentHash.of(bytes: bytes) == master.hash else {
      throw VipsError(
        context: master.path,
        message: "the file changed while the build was running; run the build again")
    }
    guard !keepingMetadata, let stripped = withoutMetadata(bytes) else {
      return RenderedFile(output: output, bytes: bytes, hash: master.hash)
    }
    return RenderedFile(output: output, bytes: stripped, hash: ContentHash.of(bytes: stripped))
  }

  /// `bytes` (a JPEG or a PNG) without their metadata segments or chunks (``JPEGMetadata``,
  /// ``PNGMetadata``), when they have some and the result is checked to decode (under
  /// `fail-on`) to exactly the original's pixels, bands and profile. Nil (ship the file as
  /// it is) otherwise: a file that does not decode, one over `limit-input-pixels` (never
  /// decoded), or one whose EXIF orientation turns it (without the EXIF block it would be
  /// shown turned).
  func withoutMetadata(_ bytes: [UInt8]) -> [UInt8]? {
    guard let stripped = ContainerMetadata.stripped(bytes) else { return nil }
    do {
      let options = LoadOptions(failOn: failOn)
      let before = try VipsImage.load(bytes: bytes, options: options)
      let area = before.width.multipliedReportingOverflow(by: before.height)
      guard before.orientation == 1, !area.overflow, area.partialValue <= limits.inputPixels
      else { return nil }
      let after = try VipsImage.load(bytes: stripped, options: options)
      guard after.width == before.width, after.height == before.height,
        after.bands == before.bands, after.format == before.format,
        after.hasICCProfile == before.hasICCProfile, after.orientation == 1
      else { return nil }
      return try after.pixelBytes() == before.pixelBytes() ? stripped : nil
    } catch {
      return nil
    }
  }
}
