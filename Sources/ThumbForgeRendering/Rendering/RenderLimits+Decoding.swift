package import ThumbForgeConfig
package import ThumbForgePlanning
internal import Vips

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
