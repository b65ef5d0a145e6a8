/// Whether libheif can encode AV1 here, found once by encoding a 16 × 16 image: libvips
/// has `heifsave` whenever it was built with libheif, but libheif encodes AV1 only with one
/// of its optional encoders (libaom, rav1e, SVT-AV1), and says so only when asked to.
enum AVIFProbe {
  /// nil when AVIF can be written; else why not.
  static let reason: String? = {
    guard Vips.hasOperation("heifsave_buffer") else {
      return "this libvips was built without HEIF support (libheif)"
    }
    do throws(VipsError) {
      let image = try VipsImage.solid(width: 16, height: 16, color: [40, 120, 200])
      let bytes = try image.encoded(as: .avif)
      return bytes.isEmpty ? "libheif wrote an empty file" : nil
    } catch {
      // One line: libvips' messages may span several.
      let detail = error.message.split(whereSeparator: { $0.isNewline }).joined(separator: "; ")
      return "libheif has no AV1 encoder (install libaom, rav1e or SVT-AV1 for libheif): \(detail)"
    }
  }()
}
