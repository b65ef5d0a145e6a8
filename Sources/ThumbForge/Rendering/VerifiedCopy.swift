internal import Vips

/// The check a master passes before its bytes are shipped as an output unchanged: it is
/// the file that was planned (same content hash), it decodes in full under `fail-on` (a
/// truncated or damaged file is refused like any other), and it has the planned size.
struct VerifiedCopy {
  let master: Master
  let failOn: FailOn

  /// Checks `bytes` (the master file as read for copying) and returns their content hash.
  /// - Throws: ``VipsError`` naming the master when the file changed since it was planned,
  ///   does not decode in full, or decodes to another size.
  func check(_ bytes: [UInt8]) throws(VipsError) -> String {
    let hash = ContentHash.of(bytes: bytes)
    guard hash == master.hash else {
      throw VipsError(
        context: master.path,
        message: "the file changed while the build was running; run the build again")
    }
    let image: VipsImage
    do {
      image = try VipsImage.load(bytes: bytes, options: LoadOptions(failOn: failOn))
      // Every pixel decoded: the loader meets a truncation or a damaged block here.
      _ = try image.average()
    } catch {
      throw VipsError(context: master.path, message: error.message)
    }
    let rotated = image.orientation >= 5
    let size = PixelSize(
      width: rotated ? image.height : image.width, height: rotated ? image.width : image.height)
    guard master.isVector || size == master.pixelSize else {
      throw VipsError(
        context: master.path,
        message: "decodes to \(size), not the \(master.pixelSize) it was planned at")
    }
    return hash
  }
}
