internal import Foundation
internal import ThumbForgeConfig

/// A slot of a carried image set whose file is not in the asset folder (deleted, so that
/// ThumbForge makes it), made from the file of the same slot at the largest larger scale:
/// `uk.imageset` lists `uk.png` (1x) and `uk@3x.png` (3x) and holds only the latter, so
/// `uk.png` is `uk@3x.png` resized to a third. Slots are the same when every member of their
/// `Contents.json` entry but `filename` and `scale` is (idiom, appearances, gamut, …).
///
/// ```swift
/// AsIsDerivation.find(contents: text, folder: "Flags/uk.imageset", present: files)
/// // [AsIsDerivation(fileName: "uk.png", scale: 1, isDark: false, from: "Flags/uk.imageset/uk@3x.png", fromScale: 3)]
/// ```
package struct AsIsDerivation: Hashable, Sendable {
  /// The missing file's name, as the entry lists it.
  package var fileName: String
  /// The missing slot's scale.
  package var scale: Int
  /// Whether the slot is the dark appearance.
  package var isDark: Bool
  /// The file it is made from (asset-folder-relative).
  package var from: String
  /// That file's scale.
  package var fromScale: Int

  /// The derivations an image set's `Contents.json` (`contents`) calls for, given the
  /// files of the folder that exist (`present`, asset-folder-relative). A missing file with
  /// no larger file of its slot, or of a format ThumbForge cannot write, is left as it is.
  package static func find(contents: String, folder: String, present: Set<String>)
    -> [AsIsDerivation]
  {
    guard folder.lowercased().hasSuffix(".imageset"),
      let json = (try? JSONSerialization.jsonObject(with: Data(contents.utf8))) as? [String: Any],
      let images = json["images"] as? [[String: Any]]
    else { return [] }
    let slots = images.compactMap { Slot(entry: $0, folder: folder, present: present) }
    return slots.filter { !$0.exists }.compactMap { missing in
      guard writable.contains(missing.fileExtension),
        let source = slots.filter({
          $0.exists && $0.kind == missing.kind && $0.scale > missing.scale
            && readable.contains($0.fileExtension)
        }).max(by: { $0.scale < $1.scale })
      else { return nil }
      return AsIsDerivation(
        fileName: missing.fileName, scale: missing.scale, isDark: missing.isDark,
        from: folder + "/" + source.fileName, fromScale: source.scale)
    }
  }

  /// Formats a derivation can be written in (the missing file's extension says which).
  private static let writable: Set<String> = ["png", "jpg", "jpeg", "webp", "heic", "heif", "avif"]
  /// Raster formats a derivation can be made from.
  private static let readable: Set<String> = [
    "png", "jpg", "jpeg", "webp", "heic", "heif", "avif", "tif", "tiff", "gif",
  ]

  /// One entry of `images` with a file name and a `1x`–`3x` scale.
  private struct Slot {
    var fileName: String
    var scale: Int
    /// Every member but `filename` and `scale`, as sorted JSON: slots of one kind differ
    /// only in scale.
    var kind: Data
    var exists: Bool
    var isDark: Bool

    var fileExtension: String { (fileName as NSString).pathExtension.lowercased() }

    init?(entry: [String: Any], folder: String, present: Set<String>) {
      guard let fileName = entry["filename"] as? String, let text = entry["scale"] as? String,
        text.hasSuffix("x"), let scale = Int(text.dropLast()), (1...3).contains(scale)
      else { return nil }
      var rest = entry
      rest["filename"] = nil
      rest["scale"] = nil
      guard let kind = try? JSONSerialization.data(withJSONObject: rest, options: .sortedKeys)
      else { return nil }
      self.fileName = fileName
      self.scale = scale
      self.kind = kind
      exists = present.contains(folder + "/" + fileName)
      isDark = (entry["appearances"] as? [[String: Any]] ?? []).contains {
        $0["appearance"] as? String == "luminosity" && $0["value"] as? String == "dark"
      }
    }
  }
}
