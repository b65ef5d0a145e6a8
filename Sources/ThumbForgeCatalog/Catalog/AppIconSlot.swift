package import ThumbForgeConfig

/// One slot of an app icon set (`.appiconset`), as Xcode lists it in `Contents.json`, and the
/// tables of slots each layout and platform has.
///
/// ```swift
/// AppIconSlot.slots(layout: .perSize, platforms: [.ios]).map(\.pixels)
/// // [40, 60, 58, 87, 80, 120, 120, 180, 20, 40, 29, 58, 40, 80, 76, 152, 167, 1024]
/// ```
package struct AppIconSlot: Hashable, Sendable {
  /// `universal` (the single-size icon), `iphone`, `ipad`, `ios-marketing` or `mac`.
  var idiom: String
  /// `ios` for the single-size icon; nil for per-size slots.
  var platform: String?
  /// The icon's side in points (83.5 for the iPad Pro's home screen icon).
  var points: Double
  /// The display scale; nil for the single-size icon, whose slot has none.
  var scale: Int?
  /// The appearance the slot is for; only the single-size iOS icon has dark and tinted
  /// slots.
  package var appearance: Slot.Appearance = .any

  /// The icon's side in pixels.
  package var pixels: Int { Int((points * Double(scale ?? 1)).rounded()) }

  /// Whether the icon must have no alpha: the App Store refuses iOS icons with alpha (the
  /// system masks them itself). Dark and tinted icons may be transparent (the system draws
  /// their background), and Mac icons keep their own shape.
  package var isOpaque: Bool { idiom != "mac" && appearance == .any }

  /// The slot its file fills in a plan: scale 1 (icon files are told apart by their pixel
  /// size, not a scale), its appearance, sRGB. Slots of one platform, appearance and pixel
  /// size share one file.
  package var fileSlot: Slot { Slot(scale: 1, appearance: appearance) }

  /// The name of the file that fills the slot: `{asset}{~dark|~tinted}{-mac}-{pixels}.png`
  /// (`AppIcon-120.png`, `AppIcon~dark-1024.png`, `AppIcon-mac-64.png`); the appearance's
  /// suffix is the slot's, as imagesets' files have it.
  package func fileName(asset: String) -> String {
    "\(asset)\(fileSlot.fileSuffix)\(idiom == "mac" ? "-mac" : "")-\(pixels).png"
  }

  /// `size` as Xcode writes it: `"20x20"`, `"83.5x83.5"`.
  var sizeText: String {
    let side =
      points == points.rounded() ? String(Int(points)) : String(points)
    return "\(side)x\(side)"
  }

  /// The slots of an icon set, in the order Xcode lists them: iOS (the single-size icon's
  /// three appearances, or every iPhone, iPad and App Store slot), then the Mac's.
  package static func slots(layout: IconLayout, platforms: [IconPlatform]) -> [AppIconSlot] {
    var slots: [AppIconSlot] = []
    if platforms.contains(.ios) {
      switch layout {
      case .single:
        slots += Slot.Appearance.allCases.map {
          AppIconSlot(idiom: "universal", platform: "ios", points: 1024, scale: nil, appearance: $0)
        }
      case .perSize:
        slots += perSize("iphone", [20, 29, 40, 60], scales: [2, 3])
        slots += perSize("ipad", [20, 29, 40, 76], scales: [1, 2])
        slots.append(AppIconSlot(idiom: "ipad", points: 83.5, scale: 2))
        slots.append(AppIconSlot(idiom: "ios-marketing", points: 1024, scale: 1))
      }
    }
    if platforms.contains(.macos) {
      slots += perSize("mac", [16, 32, 128, 256, 512], scales: [1, 2])
    }
    return slots
  }

  /// Every size at every scale, size by size.
  private static func perSize(_ idiom: String, _ sizes: [Double], scales: [Int]) -> [AppIconSlot] {
    sizes.flatMap { size in scales.map { AppIconSlot(idiom: idiom, points: size, scale: $0) } }
  }
}
