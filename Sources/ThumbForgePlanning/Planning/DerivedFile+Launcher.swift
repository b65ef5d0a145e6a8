internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import Vips

/// Android launcher icons from an app icon set (`android:` on): in `mipmap-<density>/`, the
/// legacy square icon and its round version (48 dp), and the adaptive icon's layers (108 dp):
/// the icon centred in the square inscribed in the 66 dp safe zone on a transparent canvas,
/// and, from a tinted master, a monochrome layer of its shape (its alpha, or an opaque one's
/// luminance); in `mipmap-anydpi-v26/`
/// the adaptive icon's XML (and its round twin), in `values/` its background colour (the
/// recipe's `background`).
enum LauncherIcon {
  /// The legacy icon's side, in dp.
  static let legacySide = 48.0
  /// An adaptive icon layer's side, in dp.
  static let layerSide = 108.0
  /// The diameter of the circle every launcher mask keeps, in dp.
  static let safeZone = 66.0

  /// The side in pixels of `dp` at `density`.
  static func pixels(_ dp: Double, _ density: AndroidDensity) -> Int {
    Int((dp * density.factor).rounded())
  }

  /// The side in pixels of the square inscribed in the safe zone at `density`, rounded down
  /// so that it stays inside.
  static func insetSide(_ density: AndroidDensity) -> Int {
    Int((safeZone / 2.0.squareRoot() * density.factor).rounded(.down))
  }

  /// The adaptive icon's XML, with a monochrome layer when there is one.
  static func adaptiveXML(name: String, monochrome: Bool) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="utf-8"?>"#,
      #"<adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">"#,
      #"    <background android:drawable="@color/\#(name)_background"/>"#,
      #"    <foreground android:drawable="@mipmap/\#(name)_foreground"/>"#,
    ]
    if monochrome {
      lines.append(#"    <monochrome android:drawable="@mipmap/\#(name)_monochrome"/>"#)
    }
    lines.append("</adaptive-icon>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The background colour resource (`#RRGGBB`, `#AARRGGBB` when translucent).
  static func backgroundXML(name: String, color: RGBAColor) -> String {
    let rgb = String(format: "%02X%02X%02X", color.red, color.green, color.blue)
    let value = color.alpha == 255 ? "#" + rgb : "#" + String(format: "%02X", color.alpha) + rgb
    return """
      <?xml version="1.0" encoding="utf-8"?>
      <resources>
          <color name="\(name)_background">\(value)</color>
      </resources>

      """
  }
}

extension PlannedImageSet {
  /// Plans the launcher icons of an app icon set from its largest file of the any
  /// appearance (and the monochrome layer from its tinted one), at each density of
  /// `settings` up to that file's size (never enlarged), as the resource `name`.
  mutating func planLauncherIcons(name: String, settings: AndroidSettings) {
    guard let icon = largestSRGBOutput(.any) else { return }
    let tinted = largestSRGBOutput(.tinted)
    let largest = outputs[icon].pixelSize.width
    for density in settings.densities
    where LauncherIcon.pixels(LauncherIcon.layerSide, density) <= largest {
      let legacy = LauncherIcon.pixels(LauncherIcon.legacySide, density)
      let layer = PixelSize(
        width: LauncherIcon.pixels(LauncherIcon.layerSide, density),
        height: LauncherIcon.pixels(LauncherIcon.layerSide, density))
      let inset = PixelSize(
        width: LauncherIcon.insetSide(density), height: LauncherIcon.insetSide(density))
      let folder = "mipmap-\(density.rawValue)/\(name)"
      let square = PixelSize(width: legacy, height: legacy)
      outputs[icon].derived.append(launcherFile(icon, square, folder + ".png"))
      var round = launcherFile(icon, square, folder + "_round.png")
      round.finish = .shape(OutputShape(circleOf: legacy))
      outputs[icon].derived.append(round)
      var foreground = launcherFile(icon, layer, folder + "_foreground.png")
      (foreground.resizeTo, foreground.finish) = (inset, .inset)
      outputs[icon].derived.append(foreground)
      if let tinted {
        var monochrome = launcherFile(tinted, layer, folder + "_monochrome.png")
        (monochrome.resizeTo, monochrome.finish) = (inset, .silhouette)
        outputs[tinted].derived.append(monochrome)
      }
    }
    guard !derivedFiles(.android).isEmpty else { return }
    let adaptive = LauncherIcon.adaptiveXML(name: name, monochrome: tinted != nil)
    for (path, text) in [
      ("mipmap-anydpi-v26/\(name).xml", adaptive),
      ("mipmap-anydpi-v26/\(name)_round.xml", adaptive),
      (
        "values/\(name)_background.xml",
        LauncherIcon.backgroundXML(name: name, color: recipe.background)
      ),
    ] {
      var file = launcherFile(icon, PixelSize(width: 0, height: 0), path)
      file.text = text
      outputs[icon].derived.append(file)
    }
  }

  /// A launcher file made from output `index`: a PNG of `size` at `path` in `res`.
  private func launcherFile(_ index: Int, _ size: PixelSize, _ path: String) -> DerivedFile {
    DerivedFile(.android, of: outputs[index], recipe: recipe, size: size, format: .png, path: path)
  }
}
