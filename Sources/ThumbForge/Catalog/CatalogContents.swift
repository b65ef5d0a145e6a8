/// The text of every `Contents.json` the catalog writer produces, byte for byte as Xcode writes it.
///
/// ```swift
/// CatalogContents.root()
/// // {
/// //   "info" : {
/// //     "author" : "xcode",
/// //     "version" : 1
/// //   }
/// // }
/// ```
public enum CatalogContents {
  /// The scales of an image set's universal slots, in the order Xcode lists them.
  public static let scales = [1, 2, 3]

  /// The `Contents.json` of the `.xcassets` folder itself: only the `info` object.
  public static func root() -> String {
    XcodeJSON.object(["info": info]).serialized()
  }

  /// The `Contents.json` of a group folder.
  ///
  /// - Parameter providesNamespace: When `true`, adds `"provides-namespace" : true`, so Xcode
  ///   looks the group's assets up as `"Group/Name"`.
  public static func group(providesNamespace: Bool) -> String {
    var members: [String: XcodeJSON] = ["info": info]
    if providesNamespace {
      members["properties"] = ["provides-namespace": true]
    }
    return XcodeJSON.object(members).serialized()
  }

  /// The `Contents.json` of an `.imageset` folder.
  ///
  /// The `images` array always lists the universal 1x, 2x and 3x slots in that order, with a
  /// `filename` only where the entry has a file (scales other than 1, 2 and 3 are not slots and
  /// are left out). When the entry has dark files, each scale's slot is followed by its dark
  /// slot, as Xcode does for the "Any, Dark" appearances. `properties` holds the compression
  /// type, `preserves-vector-representation` (only when `true`) and the template rendering
  /// intent, and is left out when none is set.
  public static func imageSet(_ entry: ImageSetEntry) -> String {
    var images: [XcodeJSON] = []
    if let single = entry.files[ImageSetEntry.singleScale] {
      // A vector master kept as it is: one universal "Single Scale" slot, as Xcode writes it.
      images.append(["filename": .string(single), "idiom": "universal"])
      if let dark = entry.darkFiles[ImageSetEntry.singleScale] {
        images.append([
          "appearances": darkAppearances, "filename": .string(dark), "idiom": "universal",
        ])
      }
    }
    for scale in scales where entry.files[ImageSetEntry.singleScale] == nil {
      images.append(slot(scale: scale, filename: entry.files[scale], dark: false))
      if !entry.darkFiles.isEmpty {
        images.append(slot(scale: scale, filename: entry.darkFiles[scale], dark: true))
      }
    }
    var members: [String: XcodeJSON] = ["images": .array(images), "info": info]
    var properties: [String: XcodeJSON] = [:]
    if let compressionType = entry.compressionType {
      properties["compression-type"] = .string(compressionType)
    }
    if entry.preservesVectorRepresentation {
      properties["preserves-vector-representation"] = true
    }
    if let intent = entry.templateRenderingIntent {
      properties["template-rendering-intent"] = .string(intent)
    }
    if !properties.isEmpty {
      members["properties"] = .object(properties)
    }
    return XcodeJSON.object(members).serialized()
  }

  /// `"info" : { "author" : "xcode", "version" : 1 }`, present in every `Contents.json`.
  static let info: XcodeJSON = ["author": "xcode", "version": 1]

  /// The dark appearance of a slot: `[ { "appearance" : "luminosity", "value" : "dark" } ]`.
  static let darkAppearances: XcodeJSON = [["appearance": "luminosity", "value": "dark"]]

  private static func slot(scale: Int, filename: String?, dark: Bool) -> XcodeJSON {
    var members: [String: XcodeJSON] = ["idiom": "universal", "scale": .string("\(scale)x")]
    if let filename {
      members["filename"] = .string(filename)
    }
    if dark {
      members["appearances"] = darkAppearances
    }
    return .object(members)
  }
}
