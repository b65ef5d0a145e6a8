internal import ThumbForgeConfig

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
package enum CatalogContents {
  /// The scales of an image set's universal slots, in the order Xcode lists them.
  static let scales = [1, 2, 3]

  /// The `Contents.json` of the `.xcassets` folder itself: only the `info` object.
  package static func root() -> String {
    XcodeJSON.object(["info": info]).serialized()
  }

  /// The `Contents.json` of a group folder.
  ///
  /// - Parameter providesNamespace: When `true`, adds `"provides-namespace" : true`, so Xcode
  ///   looks the group's assets up as `"Group/Name"`.
  package static func group(providesNamespace: Bool) -> String {
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
  /// every imageset (it is part of the imageset's key), and the tree's cost added up.
  /// The keys are written in sorted order, as ``XcodeJSON`` sorts them (each slot's entry by
  /// ``Slot/imageSetEntry(filename:listsGamut:)``); tests compare both writers on many
  /// entries.
  package static func imageSet(_ entry: ImageSetEntry) -> String {
    let slots = slots(of: entry)
    let listsGamut = slots.contains { $0.gamut == .displayP3 }
    var text = "{\n  \"images\" : [\n"
    text += slots.map { slot in
      slot.imageSetEntry(
        filename: entry.file(for: slot).map(XcodeJSON.quoted), listsGamut: listsGamut)
    }.joined(separator: ",\n")
    text += "\n  ],\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }"
    return text + properties(of: entry) + "\n}\n"
  }

  /// The slots an imageset's `Contents.json` lists, in Xcode's order: a single-scale entry's
  /// one slot (and its dark one); else per scale, per gamut (sRGB, then Display P3 when the
  /// entry has P3 files), any and then dark (when the entry has dark files).
  static func slots(of entry: ImageSetEntry) -> [Slot] {
    if entry.files[Slot.singleScale] != nil {
      // A vector master kept as it is: one universal "Single Scale" slot, as Xcode writes it.
      let dark = Slot(scale: Slot.singleScale, appearance: .dark)
      return [Slot(scale: Slot.singleScale)] + (entry.file(for: dark) == nil ? [] : [dark])
    }
    let gamuts: [DisplayGamut] =
      entry.displayP3Files.isEmpty && entry.displayP3DarkFiles.isEmpty
      ? [.sRGB] : [.sRGB, .displayP3]
    let appearances: [Slot.Appearance] =
      entry.darkFiles.isEmpty && entry.displayP3DarkFiles.isEmpty ? [.any] : [.any, .dark]
    return scales.flatMap { scale in
      gamuts.flatMap { gamut in
        appearances.map { Slot(scale: scale, appearance: $0, gamut: gamut) }
      }
    }
  }

  /// The `properties` member of an imageset's `Contents.json` (with the `,` and line break
  /// before it), or nothing when the entry sets no property.
  private static func properties(of entry: ImageSetEntry) -> String {
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
    if properties.isEmpty { return "" }
    return ",\n  \"properties\" : {\n    " + properties.joined(separator: ",\n    ") + "\n  }"
  }

  /// The `Contents.json` of an `.appiconset` folder: every slot in the order given (see
  /// ``AppIconSlot/slots(layout:platforms:)``), with a `filename` where the slot has a file;
  /// dark and tinted slots carry Xcode's `luminosity` appearance.
  package static func appIconSet(_ slots: [(slot: AppIconSlot, filename: String?)]) -> String {
    let images: [XcodeJSON] = slots.map { slot, filename in
      var members: XcodeJSON.Object = [
        "idiom": .string(slot.idiom), "size": .string(slot.sizeText),
      ]
      members["filename"] = filename.map(XcodeJSON.string)
      members["platform"] = slot.platform.map(XcodeJSON.string)
      members["scale"] = slot.scale.map { .string("\($0)x") }
      if let value = slot.fileSlot.appearanceValue {
        members["appearances"] = [
          ["appearance": .string(Slot.appearanceKind), "value": .string(value)]
        ]
      }
      return .object(members)
    }
    return XcodeJSON.object(["images": .array(images), "info": info]).serialized()
  }

  /// `"info" : { "author" : "xcode", "version" : 1 }`, present in every `Contents.json`.
  static let info: XcodeJSON = ["author": "xcode", "version": 1]

  /// The dark appearance of a slot: `[ { "appearance" : "luminosity", "value" : "dark" } ]`.
  static let darkAppearances: XcodeJSON = [
    ["appearance": .string(Slot.appearanceKind), "value": .string(Slot.Appearance.dark.rawValue)]
  ]

}
