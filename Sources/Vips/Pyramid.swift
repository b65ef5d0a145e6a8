/// Box-halved copies (½, ¼, …) of one decoded master, each made once and shared by every
/// output of the job.
///
/// A resize's cost grows with the reduction (the kernel stretches over more pixels), so
/// small outputs start from the smallest level still `gap` times their size, as libvips'
/// `resize` and Pillow's `reducing_gap` do; the final resize keeps the quality. The gap is
/// 3 where theirs is 2: from a level only twice the output, fine texture at small sizes
/// moved beyond the fidelity test's tolerance (`FidelityDifferentialTests`).
final class Pyramid {
  /// The smallest level used is at least this many times the output (libvips' `gap`).
  static let gap = 3

  private var levels: [VipsImage]
  private let enabled: Bool
  /// The picture's size in the base's pixels (see ``MasterImage/extent``); each level
  /// spans half its parent's, whatever odd row or column the halving dropped.
  private let extent: (width: Double, height: Double)

  /// Levels are only made for images without alpha: box-shrinking unpremultiplied colour
  /// would bleed transparent pixels' colour into the edges.
  init(base: VipsImage, extent: (width: Double, height: Double)) {
    levels = [base]
    enabled = !base.hasAlpha
    self.extent = extent
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

  /// The smallest level still at least `gap` times `target` on both axes, and the
  /// picture's size in its pixels.
  func source(for target: (width: Int, height: Int)) throws(VipsError) -> (
    image: VipsImage, extent: (width: Double, height: Double)
  ) {
    guard enabled else { return (levels[0], extent) }
    var index = 0
    while true {
      let level = levels[index]
      let nextWidth = level.width / 2
      let nextHeight = level.height / 2
      guard nextWidth >= Self.gap * target.width && nextHeight >= Self.gap * target.height else {
        let scale = Double(1 << index)
        return (level, (extent.width / scale, extent.height / scale))
      }
      index += 1
      if index == levels.count {
        levels.append(try level.halved())
      }
    }
  }
}
