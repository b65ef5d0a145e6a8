/// Which slot of an imageset (or app icon set) one file fills: its scale, its appearance and
/// its display gamut.
///
/// Every spelling of a slot comes from here, so that the file a plan names, the entry that
/// lists it in `Contents.json`, the manifest's record of it and the name `serve` is asked for
/// can never disagree: the file-name suffixes (`~dark`, `~P3`, `@2x`), the members of its
/// `Contents.json` entry (`appearances`, `display-gamut`, `scale`), the manifest's
/// `appearance` and `displayGamut` strings, and the parsing of a request name back into an
/// asset and a slot.
///
/// ```swift
/// let slot = Slot(scale: 2, appearance: .dark, gamut: .displayP3)
/// slot.fileName(asset: "Italy", fileExtension: "png")  // "Italy~dark~P3@2x.png"
/// Slot.parse(requestName: "Flags/Italy~dark~P3", scale: 2)
/// // (asset: "Flags/Italy", slot: slot)
/// ```
///
/// Whether a file is flattened (an iOS app icon's) is not part of the slot: it is how the
/// file is rendered, decided by the app icon slot it is made for (``PlannedOutput/isOpaque``).
package struct Slot: Hashable, Sendable {
  /// The appearance a slot is for (Xcode's "Appearances"). Imagesets have any and dark
  /// slots; only the single-size iOS app icon has a tinted one.
  package enum Appearance: String, Hashable, Sendable, CaseIterable {
    /// Every appearance: the files an imageset without dark art has only.
    case any
    /// Dark mode (Xcode's `luminosity` appearance `dark`).
    case dark
    /// An app icon's tinted appearance: made greyscale (the system applies the tint).
    case tinted
  }

  /// Display scale (1–3), or ``singleScale`` for a single-scale file (a kept vector master).
  /// App icon files have scale 1: their slots are told apart by pixel size.
  package var scale: Int
  package var appearance: Appearance
  /// The gamut the file is made in: sRGB, or Display P3 (with its profile) beside the sRGB
  /// file of a wide-gamut master.
  package var gamut: DisplayGamut

  /// A slot; any appearance and sRGB unless told.
  package init(scale: Int, appearance: Appearance = .any, gamut: DisplayGamut = .sRGB) {
    self.scale = scale
    self.appearance = appearance
    self.gamut = gamut
  }

  /// The scale of a single-scale slot (Xcode's "Single Scale"), which has no `scale` member
  /// and no `@Nx` in its file name.
  package static let singleScale = 0

  // MARK: File names

  /// What a file name adds to the asset's name for this slot's appearance and gamut: `~dark`
  /// or `~tinted`, then `~P3` for a Display P3 file (`""`, `~dark`, `~P3`, `~dark~P3`).
  /// `serve`'s request names carry the same suffixes (``parse(requestName:scale:)``).
  package var fileSuffix: String {
    let appearance = self.appearance == .any ? "" : Self.separator + self.appearance.rawValue
    return gamut == .displayP3 ? appearance + Self.p3Suffix : appearance
  }

  /// The scale's part of a file name: `@2x`, or nothing for a single-scale file.
  package var scaleSuffix: String {
    scale == Self.singleScale ? "" : "@\(scale)x"
  }

  /// The name of this slot's file of `asset` in an imageset: `Italy@2x.png`,
  /// `Italy~dark~P3@3x.jpg`, `Logo~dark.svg` (single scale).
  package func fileName(asset: String, fileExtension: String) -> String {
    "\(asset)\(fileSuffix)\(scaleSuffix).\(fileExtension)"
  }

  /// The slot as warnings name it: `@2x`, `@2x (dark)`, `@3x (dark, Display P3)`.
  package var label: String {
    var notes: [String] = []
    if appearance != .any { notes.append(appearance.rawValue) }
    if gamut == .displayP3 { notes.append("Display P3") }
    let scale = "@\(scale)x"
    return notes.isEmpty ? scale : "\(scale) (\(notes.joined(separator: ", ")))"
  }

  /// Separates an appearance suffix from the asset's name (not the configurable suffix of
  /// dark masters, which only names masters).
  private static let separator = "~"
  /// A Display P3 file's suffix.
  private static let p3Suffix = "~P3"

  // MARK: Contents.json

  /// The value of this slot's `luminosity` appearance in `Contents.json` (`dark`,
  /// `tinted`); nil for the any appearance, which has no `appearances` member. The manifest
  /// records the same word (``manifestAppearance``).
  package var appearanceValue: String? {
    appearance == .any ? nil : appearance.rawValue
  }

  /// The kind of appearance Xcode records for dark and tinted slots.
  package static let appearanceKind = "luminosity"

  /// This slot's entry in the `images` array of an imageset's `Contents.json`, byte for byte
  /// as Xcode writes it (keys sorted, four spaces in): `appearances` when dark or tinted,
  /// `display-gamut` when the set lists gamuts (it has Display P3 files: then every entry
  /// names its gamut, `sRGB` included), `filename` when the slot has a file, `idiom` and,
  /// unless single-scale, `scale`.
  ///
  /// - Parameters:
  ///   - filename: The file's name already as JSON text (quoted and escaped by the
  ///     writer, which owns JSON's escaping), or nil for an empty slot.
  ///   - listsGamut: Whether the imageset lists its slots per gamut.
  package func imageSetEntry(filename: String?, listsGamut: Bool) -> String {
    var text = "    {\n"
    if let value = appearanceValue {
      text += "      \"appearances\" : [\n        {\n"
      text += "          \"appearance\" : \"\(Self.appearanceKind)\",\n"
      text += "          \"value\" : \"\(value)\"\n        }\n      ],\n"
    }
    if listsGamut { text += "      \"display-gamut\" : \"\(gamut.rawValue)\",\n" }
    if let filename { text += "      \"filename\" : \(filename),\n" }
    text += "      \"idiom\" : \"universal\""
    if scale != Self.singleScale { text += ",\n      \"scale\" : \"\(scale)x\"" }
    return text + "\n    }"
  }

  // MARK: Manifest

  /// The manifest's `appearance` of this slot's file: `dark` or `tinted`; nil (absent) for
  /// the any appearance.
  package var manifestAppearance: String? { appearanceValue }

  /// The manifest's `displayGamut` of this slot's file: `display-P3`; nil (absent) for
  /// sRGB.
  package var manifestGamut: String? {
    gamut == .sRGB ? nil : gamut.rawValue
  }

  /// The slot a manifest's output records, from its scale and its `appearance` and
  /// `displayGamut` strings; nil when either string is not one ThumbForge writes.
  package init?(scale: Int, manifestAppearance: String?, manifestGamut: String?) {
    var appearance = Appearance.any
    if let text = manifestAppearance {
      guard let named = Appearance(rawValue: text), named != .any else { return nil }
      appearance = named
    }
    var gamut = DisplayGamut.sRGB
    if let text = manifestGamut {
      guard let named = DisplayGamut(rawValue: text), named != .sRGB else { return nil }
      gamut = named
    }
    self.init(scale: scale, appearance: appearance, gamut: gamut)
  }

  // MARK: Request names

  /// Splits the name a `serve` request gives (`Flags/Italy~dark~P3`, without the `@2x` and
  /// extension, whose `scale` is given) into the asset's name and the slot its suffixes
  /// name: `~P3` last, `~dark` before it, as ``fileSuffix`` writes them. Only the suffixes of
  /// an imageset's files are read (tinted files belong to app icons, which are not served).
  ///
  /// - Returns: nil when the name has no such suffix, or nothing (or only a group) is left
  ///   before it; the name is then the asset's name as it stands.
  package static func parse(requestName name: String, scale: Int) -> (asset: String, slot: Slot)? {
    var stem = Substring(name)
    var slot = Slot(scale: scale)
    if stem.hasSuffix(p3Suffix) {
      slot.gamut = .displayP3
      stem = stem.dropLast(p3Suffix.count)
    }
    let dark = separator + Appearance.dark.rawValue
    if stem.hasSuffix(dark) {
      slot.appearance = .dark
      stem = stem.dropLast(dark.count)
    }
    guard !stem.isEmpty, !stem.hasSuffix("/"), slot != Slot(scale: scale) else { return nil }
    return (String(stem), slot)
  }
}
