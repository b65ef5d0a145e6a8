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
enum CatalogContents {
  /// The scales of an image set's universal slots, in the order Xcode lists them.
  static let scales = [1, 2, 3]

  /// The `Contents.json` of the `.xcassets` folder itself: only the `info` object.
  static func root() -> String {
    XcodeJSON.object(["info": info]).serialized()
  }

  /// The `Contents.json` of a group folder.
  ///
  /// - Parameter providesNamespace: When `true`, adds `"provides-namespace" : true`, so Xcode
  ///   looks the group's assets up as `"Group/Name"`.
  static func group(providesNamespace: Bool) -> String {
    var members: XcodeJSON.Object = ["info": info]
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
  /// slot, as Xcode does for the "Any, Dark" appearances. When the entry has Display P3 files,
  /// each scale lists its `sRGB` slots (any, then dark) and then its `display-P3` ones, each
  /// with a `display-gamut`, as Xcode writes Gamut "sRGB and Display P3". `properties` holds
  /// the compression type, `preserves-vector-representation` (only when `true`) and the
  /// template rendering intent, and is left out when none is set.
  ///
  /// Written directly rather than through an ``XcodeJSON`` tree: every build makes the text of
  /// every imageset (it is part of the imageset's key), and the tree cost 6 µs an imageset.
  /// The keys below are written in sorted order, as ``XcodeJSON`` sorts them; tests compare
  /// both writers on many entries.
  static func imageSet(_ entry: ImageSetEntry) -> String {
    var text = "{\n  \"images\" : [\n"
    var first = true
    let gamuts: [(name: String, files: [Int: String], dark: [Int: String])?] =
      entry.displayP3Files.isEmpty && entry.displayP3DarkFiles.isEmpty
      ? [nil]
      : [
        ("sRGB", entry.files, entry.darkFiles),
        ("display-P3", entry.displayP3Files, entry.displayP3DarkFiles),
      ]
    func slot(_ filename: String?, scale: Int?, dark: Bool, gamut: String? = nil) {
      text += first ? "    {\n" : ",\n    {\n"
      first = false
      if dark {
        text += """
                "appearances" : [
                  {
                    "appearance" : "luminosity",
                    "value" : "dark"
                  }
                ],

          """
      }
      if let gamut { text += "      \"display-gamut\" : \"\(gamut)\",\n" }
      if let filename { text += "      \"filename\" : \(XcodeJSON.quoted(filename)),\n" }
      text += "      \"idiom\" : \"universal\""
      if let scale { text += ",\n      \"scale\" : \"\(scale)x\"" }
      text += "\n    }"
    }
    if let single = entry.files[ImageSetEntry.singleScale] {
      // A vector master kept as it is: one universal "Single Scale" slot, as Xcode writes it.
      slot(single, scale: nil, dark: false)
      if let dark = entry.darkFiles[ImageSetEntry.singleScale] {
        slot(dark, scale: nil, dark: true)
      }
    } else {
      let hasDark = !entry.darkFiles.isEmpty || !entry.displayP3DarkFiles.isEmpty
      for scale in scales {
        for gamut in gamuts {
          let files = gamut?.files ?? entry.files
          slot(files[scale], scale: scale, dark: false, gamut: gamut?.name)
          if hasDark {
            let dark = gamut?.dark ?? entry.darkFiles
            slot(dark[scale], scale: scale, dark: true, gamut: gamut?.name)
          }
        }
      }
    }
    text += "\n  ],\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }"
    var properties: [String] = []
    if let compressionType = entry.compressionType {
      properties.append("\"compression-type\" : \(XcodeJSON.quoted(compressionType))")
    }
    if entry.preservesVectorRepresentation {
      properties.append("\"preserves-vector-representation\" : true")
    }
    if let intent = entry.templateRenderingIntent {
      properties.append("\"template-rendering-intent\" : \(XcodeJSON.quoted(intent))")
    }
    if !properties.isEmpty {
      text += ",\n  \"properties\" : {\n    " + properties.joined(separator: ",\n    ") + "\n  }"
    }
    return text + "\n}\n"
  }

  /// The `Contents.json` of an `.appiconset` folder: every slot in the order given (see
  /// ``AppIconSlot/slots(layout:platforms:)``), with a `filename` where the slot has a file;
  /// dark and tinted slots carry Xcode's `luminosity` appearance.
  static func appIconSet(_ slots: [(slot: AppIconSlot, filename: String?)]) -> String {
    let images: [XcodeJSON] = slots.map { slot, filename in
      var members: XcodeJSON.Object = [
        "idiom": .string(slot.idiom), "size": .string(slot.sizeText),
      ]
      members["filename"] = filename.map(XcodeJSON.string)
      members["platform"] = slot.platform.map(XcodeJSON.string)
      members["scale"] = slot.scale.map { .string("\($0)x") }
      if slot.appearance != .any {
        members["appearances"] = [
          ["appearance": "luminosity", "value": .string(slot.appearance.rawValue)]
        ]
      }
      return .object(members)
    }
    return XcodeJSON.object(["images": .array(images), "info": info]).serialized()
  }

  /// `"info" : { "author" : "xcode", "version" : 1 }`, present in every `Contents.json`.
  static let info: XcodeJSON = ["author": "xcode", "version": 1]

  /// The dark appearance of a slot: `[ { "appearance" : "luminosity", "value" : "dark" } ]`.
  static let darkAppearances: XcodeJSON = [["appearance": "luminosity", "value": "dark"]]

}
