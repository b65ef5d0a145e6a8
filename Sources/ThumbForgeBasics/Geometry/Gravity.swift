/// Where `fill` keeps the image when it crops: a compass point, the centre, or a
/// libvips smart-crop strategy.
package enum Gravity: String, Sendable, Codable, CaseIterable, Hashable {
  case center
  case north, south, east, west
  case northeast, northwest, southeast, southwest
  /// libvips smart crop: the region with most luminance frequency, saturation and skin tones.
  case attention
  /// libvips smart crop: the region with most Shannon entropy.
  case entropy

  /// Whether libvips chooses the region from the pixels.
  package var isSmart: Bool { self == .attention || self == .entropy }

  /// Accepts `centre` as a spelling of `center`, as libvips does.
  package init?(name: String) {
    if name == "centre" {
      self = .center
    } else {
      self.init(rawValue: name)
    }
  }
}
