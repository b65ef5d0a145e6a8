package import ThumbForgeBasics
package import ThumbForgeConfig
package import Vips

/// One image file a plan will produce.
///
/// Its encoding (``encode(to:)``) is the one the loose flags it once had were given — keys
/// `scale`, `isDark`, …, `isTinted`, `displayGamut`, `isOpaque`, `cost`, in that order — and
/// must stay so: ``ImageSetKeyMaker`` hashes it into every imageset's key, so another
/// encoding would make every catalog look stale.
package struct PlannedOutput: Hashable, Sendable, Codable {
  /// The slot of its imageset the file fills: scale, appearance and gamut (its file name,
  /// `Contents.json` entry and manifest record follow from it).
  package var slot: Slot
  /// Final pixel size of the file.
  package var pixelSize: PixelSize
  /// For `fill`-type recipes: the size the master is resized to before the crop.
  package var resizeTo: PixelSize
  /// The crop in resized pixels (nil when not cropping or when libvips chooses it).
  package var crop: PixelRect?
  /// The master path it is made from.
  package var master: String
  package var mode: OutputMode
  /// Encoder (unused for a single-scale vector copy, which keeps the master's format).
  package var format: ImageFormat
  /// File name inside the imageset.
  package var fileName: String
  /// Path relative to the catalog root.
  package var path: String
  /// The resampling factor from the master, when it enlarges (> 1).
  package var upscale: Double?
  /// Flattened onto the recipe's background whatever the format (iOS app icons, which the
  /// App Store takes only without alpha): decided by the app icon slots the file fills
  /// (``AppIconSlot/isOpaque``), not by its ``slot``, which does not record the icon's
  /// platform.
  package var isOpaque = false
  /// What rendering it costs, in pixels, checked against the limits before decoding.
  package var cost = RenderCost(input: 0, working: 0, output: 0, largestSide: 0)
  /// What the renderer does after the resize (not encoded: it follows from the recipe and
  /// the rest of the output, so an imageset's key holds it already).
  package var finish = OutputFinish.none
  /// Whether the imageset's placeholder is made from this file (``PlannedImageSet/placeholder``
  /// names it, so the key holds the choice).
  package var makesPlaceholder = false
  /// The files of the destinations beside the catalog made from this file (`web:`,
  /// `android:`; see ``DerivedFile``): not encoded, like ``finish``.
  package var derived: [DerivedFile] = []

  /// Display scale (1–3), or 0 for a single-scale vector file: the slot's.
  package var scale: Int { slot.scale }

  init(
    slot: Slot, pixelSize: PixelSize, resizeTo: PixelSize, crop: PixelRect?, master: String,
    mode: OutputMode, format: ImageFormat, fileName: String, path: String, upscale: Double?,
    isOpaque: Bool = false
  ) {
    self.slot = slot
    self.pixelSize = pixelSize
    self.resizeTo = resizeTo
    self.crop = crop
    self.master = master
    self.mode = mode
    self.format = format
    self.fileName = fileName
    self.path = path
    self.upscale = upscale
    self.isOpaque = isOpaque
  }

  /// The keys of the encoding, in its order (see the type's documentation).
  private enum CodingKeys: String, CodingKey {
    case scale, isDark, pixelSize, resizeTo, crop, master, mode, format, fileName, path
    case upscale, isTinted, displayGamut, isOpaque, cost
  }

  /// Encodes the output as it was encoded before it had a ``slot``: the slot as `scale`,
  /// `isDark`, `isTinted` and `displayGamut` in their old places, every key in the old
  /// order, absent optionals as the synthesized conformance left them.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(slot.scale, forKey: .scale)
    try container.encode(slot.appearance == .dark, forKey: .isDark)
    try container.encode(pixelSize, forKey: .pixelSize)
    try container.encode(resizeTo, forKey: .resizeTo)
    try container.encodeIfPresent(crop, forKey: .crop)
    try container.encode(master, forKey: .master)
    try container.encode(mode, forKey: .mode)
    try container.encode(format, forKey: .format)
    try container.encode(fileName, forKey: .fileName)
    try container.encode(path, forKey: .path)
    try container.encodeIfPresent(upscale, forKey: .upscale)
    try container.encode(slot.appearance == .tinted, forKey: .isTinted)
    try container.encode(slot.gamut, forKey: .displayGamut)
    try container.encode(isOpaque, forKey: .isOpaque)
    try container.encode(cost, forKey: .cost)
  }

  /// Decodes what ``encode(to:)`` writes; an output both dark and tinted is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let isDark = try container.decode(Bool.self, forKey: .isDark)
    let isTinted = try container.decode(Bool.self, forKey: .isTinted)
    if isDark && isTinted {
      throw DecodingError.dataCorruptedError(
        forKey: .isTinted, in: container, debugDescription: "an output is not both dark and tinted")
    }
    slot = Slot(
      scale: try container.decode(Int.self, forKey: .scale),
      appearance: isDark ? .dark : isTinted ? .tinted : .any,
      gamut: try container.decode(DisplayGamut.self, forKey: .displayGamut))
    pixelSize = try container.decode(PixelSize.self, forKey: .pixelSize)
    resizeTo = try container.decode(PixelSize.self, forKey: .resizeTo)
    crop = try container.decodeIfPresent(PixelRect.self, forKey: .crop)
    master = try container.decode(String.self, forKey: .master)
    mode = try container.decode(OutputMode.self, forKey: .mode)
    format = try container.decode(ImageFormat.self, forKey: .format)
    fileName = try container.decode(String.self, forKey: .fileName)
    path = try container.decode(String.self, forKey: .path)
    upscale = try container.decodeIfPresent(Double.self, forKey: .upscale)
    isOpaque = try container.decode(Bool.self, forKey: .isOpaque)
    cost = try container.decode(RenderCost.self, forKey: .cost)
  }
}
