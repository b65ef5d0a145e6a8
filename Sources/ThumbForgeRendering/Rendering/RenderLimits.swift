package import ThumbForgeConfig
package import ThumbForgePlanning
internal import Vips

/// The bounds every render is held to, from the configuration: checked against an
/// output's planned ``RenderCost`` before its master is decoded, by `build`, `regenerate`,
/// shards and `serve` alike (they all render through ``Renderer``).
package struct RenderLimits: Sendable, Hashable {
  /// `limit-input-pixels`: the most pixels a master may have.
  var inputPixels: Int
  /// `limit-render-pixels`: the most pixels of any image a render holds whole after
  /// decoding (a smart crop's working image, a vector rasterisation, the output).
  var renderPixels: Int

  init(
    inputPixels: Int = Config().limitInputPixels, renderPixels: Int = Config().limitRenderPixels
  ) {
    self.inputPixels = inputPixels
    self.renderPixels = renderPixels
  }

  package init(_ config: Config) {
    self.init(inputPixels: config.limitInputPixels, renderPixels: config.limitRenderPixels)
  }

  /// Why `output` may not be rendered, in the user's words, or nil when it may.
  func refusal(of output: PlannedOutput) -> String? {
    let cost = output.cost
    let slot = output.path
    if cost.input > inputPixels {
      return
        "\(slot): the master has \(cost.input) pixels, over the limit of \(inputPixels) (limit-input-pixels)"
    }
    if cost.largestSide > PixelCount.maxSide {
      return
        "\(slot): would be resized to \(output.resizeTo) before cropping to \(output.pixelSize); libvips takes at most \(PixelCount.maxSide) pixels a side (the master's shape is too far from the box's)"
    }
    if cost.working > renderPixels || cost.output > renderPixels {
      let what =
        cost.output >= cost.working
        ? "the output (\(output.pixelSize))"
        : "an image of \(cost.working) pixels made while rendering (\(output.workingImageName))"
      return
        "\(slot): \(what) is over the limit of \(renderPixels) pixels (limit-render-pixels)"
    }
    return nil
  }
}

extension PlannedOutput {
  /// What ``RenderCost/working`` is for this output, for messages.
  var workingImageName: String {
    crop == nil && resizeTo != pixelSize
      ? "the smart crop's working image" : "the rasterised vector"
  }
}

extension RenderLimits {
  /// Refuses a loaded (not yet decoded) master over `limit-input-pixels`, from its header.
  func checkInput(_ image: VipsImage, path: String) throws(VipsError) {
    try PixelCount.checkInput(image, limit: inputPixels, path: path)
  }

  /// The first refusal among `work`'s outputs (see ``refusal(of:)``), or nil.
  package func refusal(of work: [(Recipe, PlannedOutput)]) -> String? {
    work.lazy.compactMap { refusal(of: $0.1) }.first
  }
}
