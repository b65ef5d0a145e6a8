package import Foundation
internal import Vips

/// Random Xcode asset catalogs for adoption tests: every set kind Apple's Asset Catalog
/// Format Reference describes, image slots with every attribute Xcode writes, group folders
/// (with and without their own `Contents.json`, providing a namespace or not, inside one
/// another) and odd names (spaces, Unicode, dots), with PNG, JPEG (some carrying metadata),
/// SVG, PDF and data files. A seed names one catalog on every machine.
///
/// ```swift
/// var generator = CatalogGenerator(seed: 7)
/// let catalog = try generator.write(into: folder)  // folder/Images.xcassets
/// ```
package struct CatalogGenerator {
  private var random: PropertyRandom
  /// Image files written with metadata in them (catalog-relative paths).
  package private(set) var filesWithMetadata: [String] = []
  /// Sets written, by kind (`imageset`, `colorset` …).
  package private(set) var kinds: [String: Int] = [:]

  package init(seed: UInt64) {
    random = PropertyRandom(seed: seed)
  }

  /// Writes one catalog into `parent` and returns its URL.
  package mutating func write(into parent: URL) throws -> URL {
    let name = pick(["Assets", "Images", "Preview Assets", "Media Ünïcode"]) + ".xcassets"
    let root = parent.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    // Some catalogs have no root Contents.json (Xcode reads them all the same).
    if int(0...4) > 0 { try json(Self.info, to: root.appendingPathComponent("Contents.json")) }
    try fill(root, path: "", depth: 0)
    return root
  }

  // MARK: Folders

  private mutating func fill(_ folder: URL, path: String, depth: Int) throws {
    for _ in 0..<(depth == 0 ? 6 : int(1...4)) { try set(in: folder, path: path) }
    guard depth < 2 else { return }
    for _ in 0..<int(0...2) {
      let name = pick(["Flags", "Sub Group", "Émojis 日本", "v1.2", "Icons", "Photos"])
      let group = folder.appendingPathComponent(name)
      if FileManager.default.fileExists(atPath: group.path) { continue }
      try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
      if int(0...4) > 0 {
        var contents = Self.info
        if bool() { contents["properties"] = ["provides-namespace": true] }
        try json(contents, to: group.appendingPathComponent("Contents.json"))
      }
      try fill(group, path: path + name + "/", depth: depth + 1)
    }
  }

  private mutating func set(in folder: URL, path: String) throws {
    let kind = pick([
      "imageset", "imageset", "imageset", "vector", "colorset", "appiconset", "dataset",
      "symbolset", "imagestack", "brandassets", "stickerpack", "arresourcegroup",
      "complicationset", "gcleaderboard", "spriteatlas",
    ])
    let name = pick(["uk", "Avatar 2018", "icon.small", "Köln", "logo", "Bild", "a b.c"])
    let ext = kind == "vector" ? "imageset" : kind
    let url = folder.appendingPathComponent("\(name).\(ext)")
    if FileManager.default.fileExists(atPath: url.path) { return }
    kinds[ext, default: 0] += 1
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let setPath = path + "\(name).\(ext)/"
    switch kind {
    case "imageset": try imageSet(url, path: setPath, name: name)
    case "vector": try vectorSet(url, name: name)
    case "colorset": try json(colorSet(), to: url.appendingPathComponent("Contents.json"))
    case "appiconset": try appIconSet(url, path: setPath)
    case "dataset":
      try Data((0..<int(1...64)).map { _ in UInt8.random(in: 0...255, using: &random) })
        .write(to: url.appendingPathComponent("blob.bin"))
      try json(
        Self.info.merging(["data": [["filename": "blob.bin", "idiom": "universal"]]]) { a, _ in a },
        to: url.appendingPathComponent("Contents.json"))
    case "symbolset":
      try Data(Fixtures.svg(width: 10, height: 10, colors: ["#000"]).utf8)
        .write(to: url.appendingPathComponent("\(name).svg"))
      try json(
        Self.info.merging(["symbols": [["filename": "\(name).svg", "idiom": "universal"]]]) {
          a, _ in a
        }, to: url.appendingPathComponent("Contents.json"))
    default: try nested(kind, url, path: setPath)
    }
  }

  /// An image set: 1x/2x/3x slots (some empty), appearances, gamuts, idioms and the other
  /// attributes Xcode writes, and properties.
  private mutating func imageSet(_ url: URL, path: String, name: String) throws {
    var images: [[String: Any]] = []
    let idioms = bool() ? ["universal"] : ["iphone", "ipad", "mac", "watch", "tv", "vision"]
    let appearance = pick([
      [], [["appearance": "luminosity", "value": "dark"]],
      [["appearance": "luminosity", "value": "light"]],
      [["appearance": "contrast", "value": "high"]],
    ])
    for idiom in idioms.prefix(int(1...2)) {
      for scale in ["1x", "2x", "3x"] {
        var entry: [String: Any] = ["idiom": idiom, "scale": scale]
        if int(0...3) > 0 {
          let ext = bool() ? "png" : "jpg"
          let file =
            "\(name)\(scale == "1x" && bool() ? "" : "@" + scale)\(idiom == "universal" ? "" : "~" + idiom).\(ext)"
          let side = Int(scale.dropLast())! * int(4...12)
          try image(
            url.appendingPathComponent(file), path: path + file, width: side, height: side + 1)
          entry["filename"] = file
        }
        if !appearance.isEmpty && bool() { entry["appearances"] = appearance }
        if int(0...5) == 0 { entry["display-gamut"] = pick(["sRGB", "display-P3"]) }
        if int(0...6) == 0 {
          entry["language-direction"] = pick(["left-to-right", "right-to-left"])
        }
        if int(0...8) == 0 { entry["locale"] = pick(["fr", "ja", "de-CH"]) }
        if int(0...8) == 0 { entry["compression-type"] = pick(["lossless", "gpu-optimized-best"]) }
        if idiom == "iphone" && int(0...5) == 0 { entry["subtype"] = "retina4" }
        if int(0...8) == 0 { entry["width-class"] = pick(["compact", "regular"]) }
        if int(0...9) == 0 { entry["memory"] = pick(["1GB", "2GB"]) }
        if int(0...9) == 0 { entry["graphics-feature-set"] = "metal2v2" }
        if int(0...9) == 0 {
          entry["resizing"] = [
            "mode": "9-part", "center": ["mode": "tile", "width": 1, "height": 1],
            "cap-insets": ["top": 2, "left": 2, "bottom": 2, "right": 2],
          ]
        }
        images.append(entry)
      }
    }
    var contents = Self.info
    contents["images"] = images
    var properties: [String: Any] = [:]
    if bool() { properties["template-rendering-intent"] = pick(["template", "original"]) }
    if int(0...4) == 0 { properties["preserves-vector-representation"] = true }
    if int(0...5) == 0 { properties["on-demand-resource-tags"] = ["level-1"] }
    if int(0...5) == 0 { properties["localizable"] = true }
    if !properties.isEmpty { contents["properties"] = properties }
    try json(contents, to: url.appendingPathComponent("Contents.json"))
  }

  /// A single-scale vector image set (SVG or PDF) that preserves its vector data.
  private mutating func vectorSet(_ url: URL, name: String) throws {
    let file: String
    if bool() {
      file = "\(name).svg"
      try Data(Fixtures.svg(width: 12, height: 8, colors: ["#c00", "#fff"]).utf8)
        .write(to: url.appendingPathComponent(file))
    } else {
      file = "\(name).pdf"
      try Data(Fixtures.pdf(width: 12, height: 12, color: "0 0 1").utf8)
        .write(to: url.appendingPathComponent(file))
    }
    var contents = Self.info
    contents["images"] = [["filename": file, "idiom": "universal"]]
    contents["properties"] = ["preserves-vector-representation": true]
    try json(contents, to: url.appendingPathComponent("Contents.json"))
  }

  private mutating func colorSet() -> [String: Any] {
    func color() -> [String: Any] {
      [
        "color-space": pick(["srgb", "display-p3", "extended-gray"]),
        "components": [
          "alpha": "1.000", "red": "0x\(int(10...99))", "green": "0.\(int(100...999))",
          "blue": "\(int(0...255))",
        ],
      ]
    }
    var colors: [[String: Any]] = [["color": color(), "idiom": "universal"]]
    if bool() {
      colors.append([
        "appearances": [["appearance": "luminosity", "value": "dark"]], "color": color(),
        "idiom": "universal",
      ])
    }
    if int(0...3) == 0 { colors = [["idiom": "universal"]] }  // Xcode's empty AccentColor
    return Self.info.merging(["colors": colors]) { a, _ in a }
  }

  /// An app icon set: the single-size iOS 18 layout (with dark and tinted), or the legacy
  /// per-size layout with a marketing icon.
  private mutating func appIconSet(_ url: URL, path: String) throws {
    var images: [[String: Any]] = []
    if bool() {
      for (suffix, appearance) in [("", nil), ("-dark", "dark"), ("-tinted", "tinted")] {
        var entry: [String: Any] = ["idiom": "universal", "platform": "ios", "size": "1024x1024"]
        if let appearance {
          entry["appearances"] = [["appearance": "luminosity", "value": appearance]]
        }
        if int(0...3) > 0 {
          let file = "icon\(suffix).png"
          try image(url.appendingPathComponent(file), path: path + file, width: 32, height: 32)
          entry["filename"] = file
        }
        images.append(entry)
      }
    } else {
      for (idiom, size, scale) in [
        ("iphone", "20x20", "2x"), ("iphone", "60x60", "3x"), ("ipad", "76x76", "2x"),
        ("ios-marketing", "1024x1024", "1x"), ("mac", "16x16", "1x"),
        ("watch", "24x24", "2x"), ("car", "60x60", "3x"),
      ] {
        var entry: [String: Any] = ["idiom": idiom, "size": size, "scale": scale]
        if idiom == "watch" { entry["role"] = "notificationCenter"; entry["subtype"] = "38mm" }
        if bool() {
          let file = "Icon-\(idiom)-\(size)@\(scale).png"
          try image(url.appendingPathComponent(file), path: path + file, width: 8, height: 8)
          entry["filename"] = file
        }
        images.append(entry)
      }
    }
    try json(
      Self.info.merging(["images": images]) { a, _ in a },
      to: url.appendingPathComponent("Contents.json"))
  }

  /// Kinds that hold sets of their own: an image stack's layers, a brand asset's stacks and
  /// image sets, a sticker pack's stickers, an AR group's reference images, a complication
  /// set's image sets, a leaderboard's image set, a sprite atlas's image sets.
  private mutating func nested(_ kind: String, _ url: URL, path: String) throws {
    let inner: [(folder: String, key: String)]
    switch kind {
    case "imagestack":
      inner = [("Front.imagestacklayer", "layers"), ("Back.imagestacklayer", "layers")]
    case "brandassets":
      inner = [("App Icon - Small.imagestack", "assets"), ("Top Shelf.imageset", "assets")]
    case "stickerpack": inner = [("Smile.sticker", "stickers")]
    case "arresourcegroup": inner = [("Poster.arreferenceimage", "resources")]
    case "complicationset":
      inner = [("Circular.imageset", "assets"), ("Modular.imageset", "assets")]
    case "gcleaderboard": inner = [("Poster.imageset", "contents")]
    default: inner = [("One.imageset", ""), ("Two.imageset", "")]
    }
    var listed: [[String: Any]] = []
    for (folder, key) in inner {
      let child = url.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: child, withIntermediateDirectories: true)
      let file = "content.png"
      try image(
        child.appendingPathComponent(file), path: path + folder + "/" + file, width: 6, height: 4)
      let entry: [String: Any] =
        folder.hasSuffix(".imagestacklayer") || folder.hasSuffix(".imagestack")
        ? [:] : ["images": [["filename": file, "idiom": "universal"]]]
      try json(
        Self.info.merging(entry) { a, _ in a }, to: child.appendingPathComponent("Contents.json"))
      if !key.isEmpty { listed.append(["filename": folder, "idiom": "universal"]) }
    }
    var contents = Self.info
    if let key = inner.first?.key, !key.isEmpty { contents[key] = listed }
    if kind == "stickerpack" { contents["properties"] = ["grid-size": "regular"] }
    try json(contents, to: url.appendingPathComponent("Contents.json"))
  }

  // MARK: Files

  /// A small PNG or JPEG (by `url`'s extension), a third of them carrying metadata.
  private mutating func image(_ url: URL, path: String, width: Int, height: Int) throws {
    let picture = try Fixtures.photo(width: width, height: height, seed: int(0...1000))
    let isJPEG = url.pathExtension == "jpg"
    var bytes = try picture.encoded(as: isJPEG ? .jpeg : .png)
    if int(0...2) == 0 {
      bytes = isJPEG ? FileMetadata.jpeg(bytes) : FileMetadata.png(bytes)
      filesWithMetadata.append(path)
    }
    try Data(bytes).write(to: url)
  }

  private mutating func json(_ value: [String: Any], to url: URL) throws {
    // Xcode's own layout, or another tool's compact one: both are carried as they are.
    let options: JSONSerialization.WritingOptions =
      int(0...4) == 0 ? [.sortedKeys] : [.prettyPrinted, .sortedKeys]
    try JSONSerialization.data(withJSONObject: value, options: options).write(to: url)
  }

  private static var info: [String: Any] { ["info": ["author": "xcode", "version": 1]] }

  // MARK: Random choices

  private mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &random)
  }
  private mutating func bool() -> Bool { Bool.random(using: &random) }
  private mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
