/// Where a file of the asset folder lies in Xcode's terms: inside a set folder
/// (`Icons/Logo.imageset/logo@2x.png`, `Colors/Accent.colorset/Contents.json`), as a group
/// folder's own `Contents.json` (`Icons/Contents.json`), as the catalog root's
/// `Contents.json`, or none of these (a loose master or another file).
///
/// Set folders and group `Contents.json` files are carried into the catalog as they are
/// (the `as-is` recipe); this is the one place that tells them apart by their names.
///
/// ```swift
/// SetFolder.place(of: "Icons/Logo.imageset/logo.png")  // .inSet(folder: "Icons/Logo.imageset")
/// SetFolder.place(of: "Icons/Contents.json")          // .groupContents(folder: "Icons")
/// ```
package enum SetFolder {
  package enum Place: Equatable {
    /// Inside the outermost set folder `folder` (asset-folder-relative).
    case inSet(folder: String)
    /// The `Contents.json` of the group folder `folder`.
    case groupContents(folder: String)
    /// The `Contents.json` at the folder's root: the catalog root's.
    case rootContents
    /// Neither: a master or another file.
    case other
  }

  /// The file name of every folder's description.
  package static let contentsName = "Contents.json"

  /// Where `path` (`/`-separated, relative to the asset folder) lies.
  package static func place(of path: String) -> Place {
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    if let index = components.dropLast().firstIndex(where: { isSetFolderName($0) }) {
      return .inSet(folder: components[...index].joined(separator: "/"))
    }
    guard components.last == Substring(contentsName) else { return .other }
    if components.count == 1 { return .rootContents }
    return .groupContents(folder: components.dropLast().joined(separator: "/"))
  }

  /// Whether a folder named `name` is one of the set folders Xcode's asset catalogs hold.
  package static func isSetFolderName(_ name: some StringProtocol) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return extensions.contains(name[name.index(after: dot)...].lowercased())
  }

  /// The set folders' extensions (Apple's Asset Catalog Format Reference, and the kinds
  /// later Xcode versions write). Sets nested in a set (an image stack's layers, a brand
  /// asset's icons, a sticker pack's stickers) travel with the outermost one.
  static let extensions: Set<String> = [
    "appiconset", "arreferenceimage", "arreferenceobject", "arresourcegroup", "brandassets",
    "colorset", "complicationset", "cubetextureset", "dataset", "gcdashboardimage",
    "gcleaderboard", "gcleaderboardset", "iconset", "imageset", "imagestack",
    "imagestacklayer", "launchimage", "mipmapset", "mlmodelset", "solidimagestack",
    "solidimagestacklayer", "spriteatlas", "sticker", "stickerpack", "stickersequence",
    "symbolset", "textureset", "arimageset",
  ]
}
