internal import ThumbForgeBasics
internal import ThumbForgePlanning
internal import Vips

/// The check a master passes before its bytes are shipped as an output unchanged: it is
/// the file that was planned (same content hash), it decodes in full under `fail-on` (a
/// truncated or damaged file is refused like any other), and it has the planned size.
struct VerifiedCopy {
  let master: Master
  let failOn: FailOn

  /// Checks `bytes` (the master file as read for copying) and returns their content hash,
  /// and, when `makingPlaceholder`, the ThumbHash of the pixels the check decoded (a copy
  /// made an imageset's placeholder is not decoded a second time for it).
  /// - Throws: ``VipsError`` naming the master when the file changed since it was planned,
  ///   does not decode in full, or decodes to another size.
  func check(_ bytes: [UInt8], makingPlaceholder: Bool = false) throws(VipsError) -> (
    hash: String, placeholder: [UInt8]?
  ) {
    let hash = try planned(bytes)
    let image: VipsImage
    do {
      image = try VipsImage.load(bytes: bytes, options: LoadOptions(failOn: failOn))
      // Every pixel decoded: the loader meets a truncation or a damaged block here.
      _ = try image.average()
    } catch {
      throw VipsError(context: master.path, message: error.message)
    }
    let rotated = image.orientation >= 5
    try checkSize(
      PixelSize(
        width: rotated ? image.height : image.width, height: rotated ? image.width : image.height))
    // Random access: the pixels the check decoded are held, not decoded again.
    return (hash, makingPlaceholder ? try Placeholder.thumbHash(of: image.autoRotated()) : nil)
  }

  /// Checks `bytes` as ``check(_:)`` does, with the decode that also feeds the master's
  /// `resizes` (``MasterImage/openedWhole(bytes:path:resizes:failOn:limitInputPixels:profile:)``):
  /// one decode instead of two for a master both shipped as-is and resized. The hash and
  /// the size are checked now; the pixels when the returned image is resized (with
  /// ``MasterImage/resize(_:then:)``, which reads every row and throws on damage), so ship
  /// the bytes only after that. Nil when the resizes need the file shrunk on load (call
  /// ``check(_:)`` and decode the file for them instead).
  func checkDecoding(
    _ bytes: [UInt8], resizes: [ResizeRequest], limitInputPixels: Int, profile: RGBProfile
  ) throws(VipsError) -> (hash: String, decoded: MasterImage)? {
    let hash = try planned(bytes)
    let decoded: MasterImage?
    do {
      decoded = try MasterImage.openedWhole(
        bytes: bytes, path: master.path, resizes: resizes, failOn: failOn,
        limitInputPixels: limitInputPixels, profile: profile)
    } catch {
      throw VipsError(context: master.path, message: error.message)
    }
    guard let decoded else { return nil }
    try checkSize(PixelSize(width: decoded.image.width, height: decoded.image.height))
    return (hash, decoded)
  }

  /// The bytes' content hash, when they are the file that was planned.
  private func planned(_ bytes: [UInt8]) throws(VipsError) -> String {
    let hash = ContentHash.of(bytes: bytes)
    guard hash == master.hash else {
      throw VipsError(
        context: master.path,
        message: "the file changed while the build was running; run the build again")
    }
    return hash
  }

  /// Refuses an upright decoded `size` other than the planned one (a vector master's is its
  /// rendering's).
  private func checkSize(_ size: PixelSize) throws(VipsError) {
    guard master.isVector || size == master.pixelSize else {
      throw VipsError(
        context: master.path,
        message: "decodes to \(size), not the \(master.pixelSize) it was planned at")
    }
  }
}
