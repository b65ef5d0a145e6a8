package import ThumbForgeConfig
internal import Vips

/// The bounds every render is held to, from the configuration: checked against an
/// output's planned ``RenderCost`` before its master is decoded, by `build`, `regenerate`,
/// shards and `serve` alike (they all render through the renderer), and by the plan, which
/// leaves out a file of a destination beside the catalog over them.
package struct RenderLimits: Sendable, Hashable {
  /// `limit-input-pixels`: the most pixels a master may have.
  package var inputPixels: Int
  /// `limit-render-pixels`: the most pixels of any image a render holds whole after
  /// decoding (a smart crop's working image, a vector rasterisation, the output).
  package var renderPixels: Int

  package init(
    inputPixels: Int = Config().limitInputPixels, renderPixels: Int = Config().limitRenderPixels
  ) {
    self.inputPixels = inputPixels
    self.renderPixels = renderPixels
  }

  package init(_ config: Config) {
    self.init(inputPixels: config.limitInputPixels, renderPixels: config.limitRenderPixels)
  }

  /// Why `output` may not be rendered, in the user's words, or nil when it may.
  package func refusal(of output: PlannedOutput) -> String? {
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
