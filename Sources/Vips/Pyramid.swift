/// Box-halved copies (½, ¼, …) of one decoded master, each made once and shared by every
/// output of the job.
///
/// A resize's cost grows with the reduction (the kernel stretches over more pixels), so
/// small outputs start from the smallest level still `gap` times their size, as libvips'
/// `resize` and Pillow's `reducing_gap` do; the final resize keeps the quality.
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

  /// The index of the level ``source(for:)`` picks for `target` from a base of `base`
  /// (0 is the base itself), without making any level.
  static func level(
    for target: (width: Int, height: Int), base: (width: Int, height: Int)
  ) -> Int {
    var (width, height, index) = (base.width, base.height, 0)
    while width / 2 >= gap * target.width && height / 2 >= gap * target.height {
      width /= 2
      height /= 2
      index += 1
    }
    return index
  }

  /// The smallest level still at least `gap` times `target` on both axes.
  func source(for target: (width: Int, height: Int)) throws(VipsError) -> VipsImage {
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
        levels.append(try level.halved())
      }
    }
  }
}
