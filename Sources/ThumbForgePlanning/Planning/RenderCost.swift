internal import ThumbForgeBasics

/// What one output costs to render, in pixels, known from its plan before anything is
/// decoded or allocated (see the README's *Limits and memory*).
///
/// A render holds at most: the decoded master (``input``; shrink-on-load only lowers it),
/// one working image (``working``: the largest image held whole between decoding and the
/// file — a smart crop's working image, a vector rasterisation, or the output itself), and
/// the output. An enlargement before a crop is never made whole: only the crop's pixels are
/// computed, but libvips must still be able to describe the whole enlarged image, so each of
/// its sides counts in ``largestSide``.
package struct RenderCost: Hashable, Sendable, Codable {
  /// Pixels of the master as stored (0 for a vector master, which is rasterised instead).
  package var input: Int
  /// Pixels of the largest image held whole after decoding.
  package var working: Int
  /// Pixels of the output file.
  package var output: Int
  /// The longest side of any image the render describes, made whole or not.
  package var largestSide: Int

  package init(input: Int, working: Int, output: Int, largestSide: Int) {
    self.input = input
    self.working = working
    self.output = output
    self.largestSide = largestSide
  }

  /// The cost of an output of `master` resized to `resizeTo` (of which `pixelSize` is kept
  /// or, padded, made), cut as its finish plans (``OutputFinish/Cut``).
  ///
  /// A smart crop decides on the master at its own size when the plan puts it before the
  /// resize, and on the resized image otherwise: that image is its working image.
  static func planned(
    master: Master, resizeTo: PixelSize, pixelSize: PixelSize, cut: OutputFinish.Cut
  ) -> RenderCost {
    var working = pixelSize.checkedArea
    if master.isVector { working = max(working, resizeTo.checkedArea) }
    if case .smart(_, _, let beforeResize) = cut {
      let decision = beforeResize ? master.smartCropReference : resizeTo
      working = max(working, decision.checkedArea)
    }
    return RenderCost(
      input: master.isVector ? 0 : master.pixelSize.checkedArea, working: working,
      output: pixelSize.checkedArea, largestSide: max(resizeTo.longestSide, pixelSize.longestSide))
  }

  /// The cost of an output whose pixels are copied from its master or re-encoded at the
  /// master's size: the master decoded (a vector one rasterised at its intrinsic size, to
  /// check it) and the output, with nothing in between.
  static func whole(_ master: Master) -> RenderCost {
    let pixels = master.pixelSize.checkedArea
    return RenderCost(
      input: master.isVector ? 0 : pixels, working: master.isVector ? pixels : 0,
      output: pixels, largestSide: master.pixelSize.longestSide)
  }
}

extension RenderCost {
  /// The peak memory one job's render adds to the process, by the README's model (*Limits
  /// and memory*): 8 B per pixel of the largest master, 16 B per pixel of the largest
  /// working image, 12 B per pixel of every output (a job's outputs may be alive at once).
  /// Saturates at `Int.max` rather than overflow.
  package static func peakBytes(of costs: some Sequence<RenderCost>) -> Int {
    var input = 0
    var working = 0
    var outputs = 0
    for cost in costs {
      input = max(input, cost.input)
      working = max(working, cost.working)
      outputs = outputs.saturatingAdded(cost.output)
    }
    return [
      input.saturatingMultiplied(by: 8), working.saturatingMultiplied(by: 16),
      outputs.saturatingMultiplied(by: 12),
    ].reduce(0) { $0.saturatingAdded($1) }
  }
}

extension Int {
  fileprivate func saturatingMultiplied(by factor: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    return overflow ? Int.max : product
  }

  fileprivate func saturatingAdded(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? Int.max : sum
  }
}

extension PixelSize {
  /// `width × height`, or `Int.max` when the product overflows (such a size is refused).
  var checkedArea: Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// The longer of the two sides.
  var longestSide: Int { max(width, height) }
}

extension Master {
  /// The image a smart crop that enlarges decides on: a raster master as stored, upright;
  /// a vector master rasterised at its intrinsic size.
  var smartCropReference: PixelSize { isVector ? pointSize.pixels(scale: 1) : pixelSize }
}
