internal import Foundation
internal import ThumbForgeCatalog

/// An asset catalog a team already has (`Assets.xcassets`), read as masters: each imageset's
/// images with the scale and appearance its `Contents.json` gives them. Read by discovery, for
/// a catalog inside the asset folder (`thumbforge init --from` carries a catalog's sets as
/// they are instead: ``CatalogWalk``).
///
/// ```swift
/// let catalog = ExistingCatalog.read(URL(fileURLWithPath: "Legacy.xcassets"))
/// catalog.imageSets[0].qualifiedName  // "Icons/Old"
/// ```
package struct ExistingCatalog: Sendable {
  /// One image of an imageset that ThumbForge can take as a master.
  package struct Image: Sendable, Equatable {
    /// The file's name inside the imageset folder.
    package var fileName: String
    /// The slot's scale (`"2x"` → 2); nil for a single-scale image.
    package var scale: Int?
    /// Whether the slot is the dark appearance (`luminosity` / `dark`).
    package var isDark: Bool
  }

  /// One `.imageset` folder and its usable images.
  package struct ImageSet: Sendable {
    /// Group folders from the catalog's root down to the imageset.
    package var group: [String]
    /// The imageset's folder name without `.imageset`.
    package var name: String
    package var images: [Image]

    /// The folder's path inside the catalog (`Icons/Old.imageset`).
    package var folderPath: String { (group + [name + ".imageset"]).joined(separator: "/") }
    /// `Group/Name`.
    package var qualifiedName: String { (group + [name]).joined(separator: "/") }
  }

  package var imageSets: [ImageSet] = []
  /// Whether a group folder of the catalog sets `provides-namespace`.
  package var providesNamespace = false
  /// What could not be taken, each naming its file (paths start with `prefix`).
  package var problems: [Problem] = []
  /// Folders of other asset types (colour sets, app icons …), which are not read.
  package var otherAssets: [String] = []

  /// Reads the catalog at `url`; the paths of its problems start with `prefix` (the catalog's
  /// path relative to the asset folder, or its name).
  static func read(_ url: URL, prefix: String? = nil) -> ExistingCatalog {
    var catalog = ExistingCatalog()
    let prefix = prefix ?? url.lastPathComponent
    catalog.walk(url, group: [], prefix: prefix)
    return catalog
  }

  private mutating func walk(_ url: URL, group: [String], prefix: String) {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? []
    for name in names where !name.hasPrefix(".") {
      let child = url.appendingPathComponent(name)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder),
        isFolder.boolValue
      else { continue }
      let path = prefix + "/" + name
      let ext = (name as NSString).pathExtension.lowercased()
      if ext == "imageset" {
        readImageSet(
          child, group: group, name: (name as NSString).deletingPathExtension, path: path)
      } else if SetFolder.isSetFolderName(name) {
        otherAssets.append(path)
      } else {
        if GroupFolders.providesNamespace(contentsAt: child.appendingPathComponent("Contents.json"))
        {
          providesNamespace = true
        }
        walk(child, group: group + [name], prefix: path)
      }
    }
  }

  private mutating func readImageSet(_ url: URL, group: [String], name: String, path: String) {
    let contentsPath = path + "/Contents.json"
    guard let json = Self.json(url.appendingPathComponent("Contents.json")),
      let entries = json["images"] as? [[String: Any]]
    else {
      problems.append(
        Problem(path: contentsPath, reason: "missing or not an imageset's Contents.json; skipped"))
      return
    }
    var images: [Image] = []
    for entry in entries {
      guard let fileName = entry["filename"] as? String else { continue }
      let filePath = path + "/" + fileName
      if let reason = Self.whyNotTaken(entry) {
        problems.append(Problem(path: filePath, reason: reason + "; skipped"))
        continue
      }
      var scale: Int?
      if let text = entry["scale"] as? String {
        guard let value = Int(text.dropLast()), text.hasSuffix("x"),
          MasterName.knownScales.contains(value)
        else {
          problems.append(
            Problem(path: filePath, reason: "scale '\(text)' is not 1x, 2x or 3x; skipped"))
          continue
        }
        scale = value
      }
      guard FileManager.default.fileExists(atPath: url.appendingPathComponent(fileName).path)
      else {
        problems.append(
          Problem(path: contentsPath, reason: "lists '\(fileName)', which is missing; skipped"))
        continue
      }
      images.append(Image(fileName: fileName, scale: scale, isDark: Self.isDark(entry)))
    }
    imageSets.append(ImageSet(group: group, name: name, images: images))
  }

  /// Why an image entry is not read, or nil when it is.
  private static func whyNotTaken(_ entry: [String: Any]) -> String? {
    let idiom = entry["idiom"] as? String ?? "universal"
    if idiom != "universal" {
      return "idiom '\(idiom)' is not read (ThumbForge writes universal images)"
    }
    if let gamut = entry["display-gamut"] as? String, gamut != "sRGB" {
      return
        "the \(gamut) image is not read (ThumbForge makes it from the sRGB master: display-gamut)"
    }
    let appearances = entry["appearances"] as? [[String: Any]] ?? []
    for appearance in appearances {
      let kind = appearance["appearance"] as? String ?? ""
      let value = appearance["value"] as? String ?? ""
      if kind != "luminosity" || value != "dark" {
        return "the '\(kind): \(value)' appearance is not read (only any and dark)"
      }
    }
    return nil
  }

  private static func isDark(_ entry: [String: Any]) -> Bool {
    !(entry["appearances"] as? [[String: Any]] ?? []).isEmpty
  }

  private static func json(_ url: URL) -> [String: Any]? {
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }
}
