package import ThumbForgeConfig

/// One `.imageset` folder of the catalog: where it lives, which files fill its slots and the
/// image-set properties Xcode stores beside them.
///
/// ```swift
/// let flag = ImageSetEntry(
///   group: ["Flags"], name: "Austria",
///   files: [2: "Austria@2x.png", 3: "Austria@3x.png"])
/// flag.folderPath  // "Flags/Austria.imageset"
/// ```
package struct ImageSetEntry: Sendable, Equatable, Codable {
  /// Group folder names from the catalog root down to the image set; empty at the root.
  package var group: [String]
  /// The image set's folder name without the `.imageset` extension.
  package var name: String
  /// File names of the universal (any appearance) images by scale: 1, 2 or 3.
  var files: [Int: String]
  /// File names of the dark-appearance images by scale (Xcode's `luminosity` / `dark`).
  var darkFiles: [Int: String]
  /// File names of the Display P3 images by scale, universal and dark; when either has a
  /// file, every slot is written twice, for `sRGB` and `display-P3` (Xcode's Gamut "sRGB and
  /// Display P3").
  var displayP3Files: [Int: String]
  var displayP3DarkFiles: [Int: String]
  /// `"original"` or `"template"`; `nil` lets the system decide (Xcode's "Default").
  var templateRenderingIntent: String?
  /// Whether a PDF or SVG image keeps its vector data at run time.
  var preservesVectorRepresentation: Bool
  /// Xcode's compression setting, such as `"lossless"`, `"lossy"`, `"gpu-optimized-best"` or
  /// `"gpu-optimized-smallest"`; `nil` inherits the setting of the enclosing group or catalog.
  var compressionType: String?

  /// Creates an image-set description; only the location and the files are required.
  package init(
    group: [String] = [],
    name: String,
    files: [Int: String],
    darkFiles: [Int: String] = [:],
    displayP3Files: [Int: String] = [:],
    displayP3DarkFiles: [Int: String] = [:],
    templateRenderingIntent: String? = nil,
    preservesVectorRepresentation: Bool = false,
    compressionType: String? = nil
  ) {
    self.group = group
    self.name = name
    self.files = files
    self.darkFiles = darkFiles
    self.displayP3Files = displayP3Files
    self.displayP3DarkFiles = displayP3DarkFiles
    self.templateRenderingIntent = templateRenderingIntent
    self.preservesVectorRepresentation = preservesVectorRepresentation
    self.compressionType = compressionType
  }

  /// The key of `files` for a single-scale image (a vector master kept as PDF or SVG).
  static let singleScale = Slot.singleScale

  /// The file that fills `slot`, if any.
  func file(for slot: Slot) -> String? {
    Self.files(of: slot).flatMap { self[keyPath: $0][slot.scale] }
  }

  /// Makes `fileName` the file of `slot`. Imagesets have no tinted slots: a tinted file is
  /// left out.
  package mutating func setFile(_ fileName: String, for slot: Slot) {
    if let files = Self.files(of: slot) { self[keyPath: files][slot.scale] = fileName }
  }

  /// Which of the entry's file tables holds `slot`'s files by scale (nil for a tinted slot).
  private static func files(of slot: Slot) -> WritableKeyPath<ImageSetEntry, [Int: String]>? {
    switch (slot.appearance, slot.gamut) {
    case (.any, .sRGB): \.files
    case (.dark, .sRGB): \.darkFiles
    case (.any, .displayP3): \.displayP3Files
    case (.dark, .displayP3): \.displayP3DarkFiles
    case (.tinted, _): nil
    }
  }

  /// The folder's path inside the catalog, e.g. `"Flags/Austria.imageset"`.
  var folderPath: String {
    (group + [name + ".imageset"]).joined(separator: "/")
  }
}
