internal import Vips

/// Box-shrunk copies (½, ¼, …) of one decoded master, each made once and shared by every
/// output of the job.
///
/// libvips' `resize` already box-shrinks by the integer part of a large reduction before
/// its Lanczos pass (its "gap" of 2); doing that once per master instead of once per output
/// gives the same pixels for far less work when a master has many small outputs.
final class Pyramid {
  /// The smallest level used is at least this many times the output, as libvips' `gap`.
  static let gap = 2

  private var levels: [VipsImage]
  private let enabled: Bool

  /// Levels are only made for images without alpha: box-shrinking unpremultiplied colour
  /// would bleed transparent pixels' colour into the edges.
  init(base: VipsImage) {
    levels = [base]
    enabled = !base.hasAlpha
  }

  /// The smallest level still at least `gap` times `target` on both axes.
  func source(for target: PixelSize) throws(VipsError) -> VipsImage {
    guard enabled else { return levels[0] }
    var index = 0
    while true {
      let level = levels[index]
      let nextWidth = level.width / 2
      let nextHeight = level.height / 2
      guard nextWidth >= Self.gap * target.width && nextHeight >= Self.gap * target.height else {
        return level
      }
      index += 1
      if index == levels.count {
        levels.append(try level.shrink(by: 2).copiedToMemory())
      }
    }
  }
}
