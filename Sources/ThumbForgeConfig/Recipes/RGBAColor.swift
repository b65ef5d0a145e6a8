/// An 8-bit sRGB colour with alpha, written `#RRGGBB` or `#RRGGBBAA` in configuration.
package struct RGBAColor: Hashable, Sendable, Codable, CustomStringConvertible {
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8
  package var alpha: UInt8

  package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  package static let black = RGBAColor(red: 0, green: 0, blue: 0)
  package static let white = RGBAColor(red: 255, green: 255, blue: 255)
  package static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

  /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA` or a few names (black, white, clear).
  package init?(parsing text: String) {
    switch text.lowercased() {
    case "black": self = .black
    case "white": self = .white
    case "clear", "transparent": self = .clear
    default:
      var hex = Substring(text)
      guard hex.first == "#" else { return nil }
      hex = hex.dropFirst()
      if hex.count == 3 { hex = Substring(hex.map { "\($0)\($0)" }.joined()) }
      guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else {
        return nil
      }
      let full = hex.count == 6 ? (value << 8) | 0xFF : value
      self.init(
        red: UInt8(full >> 24), green: UInt8((full >> 16) & 0xFF),
        blue: UInt8((full >> 8) & 0xFF), alpha: UInt8(full & 0xFF))
    }
  }

  /// `#RRGGBBAA`.
  package var description: String {
    "#"
      + [red, green, blue, alpha].map { byte in
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
      }.joined()
  }

  /// The colour as SVG `rgb()` plus opacity.
  package var svgFill: String { "rgb(\(red),\(green),\(blue))" }
  package var svgOpacity: String { String(Double(alpha) / 255) }
}
