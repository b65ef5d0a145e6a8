internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

extension Renderer {
  /// Makes, on the master at its own size, the smart crops (`attention`, `entropy`) that the
  /// plan puts before the resize (outputs that enlarge the master), and returns `work` with
  /// those crops in place.
  ///
  /// libvips' smart crop looks at every pixel of the image it is given; given the enlarged
  /// image it would need that whole image (a 1×5000 master filling 800×400 pixels is a
  /// 3.2-gigapixel enlargement), although enlarging adds nothing to look at. So the crop is
  /// decided on the master (a vector one rasterised at its intrinsic size) with the box
  /// shrunk by the enlargement, and the rectangle found is scaled back up; the output is then
  /// resized for that rectangle only. Outputs that shrink the master are cropped after the
  /// resize, on the resized image, which is then smaller than the master.
  /// The master is decoded for this only when some output needs it.
  func decidingEnlargedSmartCrops(
    _ work: [(Recipe, PlannedOutput)], master: Master, in profile: RGBProfile
  ) throws(VipsError) -> [(Recipe, PlannedOutput)] {
    let pending = work.indices.compactMap { index in
      work[index].1.finish.smartCropBeforeResize.map { (index, $0.interesting, $0.box) }
    }
    guard !pending.isEmpty else { return work }
    let path = folder.filePath(master.path)
    let options = LoadOptions(failOn: failOn, scale: master.isVector ? 1 : nil)
    let loaded = try VipsImage.load(path: path, options: options)
    if !master.isVector { try limits.checkInput(loaded, path: master.path) }
    let image = try loaded.autoRotated().toRGB8(profile).copiedToMemory()
    var decided = work
    for (index, interesting, box) in pending {
      // The rectangle is cut with the resize; nothing is left to cut after it.
      decided[index].1.crop = try Self.smartCrop(
        of: image, resizedTo: work[index].1.resizeTo, box: box, interesting: interesting)
      decided[index].1.finish.cut = .none
    }
    return decided
  }

  /// The `box` of `image` resized to `resized` that libvips' smart crop picks, found on
  /// `image` itself with the box scaled down by the same factors.
  static func smartCrop(
    of image: VipsImage, resizedTo resized: PixelSize, box: PixelSize, interesting: Interesting
  ) throws(VipsError) -> PixelRect {
    let scaleX = Double(resized.width) / Double(image.width)
    let scaleY = Double(resized.height) / Double(image.height)
    func window(_ length: Int, _ scale: Double, _ limit: Int) -> Int {
      min(limit, max(1, Geometry.saturatingInt(Double(length) / scale)))
    }
    let found = try image.smartCropRect(
      width: window(box.width, scaleX, image.width),
      height: window(box.height, scaleY, image.height), interesting: interesting)
    func start(_ origin: Int, _ scale: Double, _ length: Int, _ total: Int) -> Int {
      min(max(0, total - length), max(0, Geometry.saturatingInt(Double(origin) * scale)))
    }
    return PixelRect(
      x: start(found.x, scaleX, box.width, resized.width),
      y: start(found.y, scaleY, box.height, resized.height),
      width: min(box.width, resized.width), height: min(box.height, resized.height))
  }
}
