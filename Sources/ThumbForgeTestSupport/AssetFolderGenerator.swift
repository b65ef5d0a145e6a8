package import Foundation
package import Vips

/// A generated asset folder: its `thumbforge.yml`, its masters and what the configuration
/// promises about each recipe, for the pipeline property test and the `pipeline` fuzz
/// target.
package struct GeneratedAssetFolder: Sendable {
  /// The configuration, valid YAML the tool accepts.
  package var config: String
  package var masters: [GeneratedMaster]
  /// Every recipe a rule or `default-recipes` can name, by name (built-ins included).
  package var recipes: [String: GeneratedRecipe]
  /// The `fail-on` level the configuration sets (libvips' default for ThumbForge: warning).
  package var failOn: FailOn
  /// `limit-input-pixels`, when the configuration sets it.
  package var limitInputPixels: Int?

  /// The files the folder holds, relative to it: the masters and `thumbforge.yml`.
  package var files: Set<String> { Set(masters.map(\.path) + ["thumbforge.yml"]) }

  /// Writes the configuration and the masters into `assets` (which must exist).
  package func write(to assets: URL) throws {
    try Data(config.utf8).write(to: assets.appendingPathComponent("thumbforge.yml"))
    for master in masters {
      let url = assets.appendingPathComponent(master.path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(master.bytes).write(to: url)
    }
  }

  /// What was generated, for a failure message: the configuration and one line per master.
  package var summary: String {
    "--- thumbforge.yml ---\n\(config)--- masters ---\n"
      + masters.map(\.description).joined(separator: "\n")
  }
}

/// Makes asset folders and configurations at random, from a seed: masters of every input
/// format, extreme shapes, damaged files, EXIF orientations, ICC profiles, pixel layouts
/// and metadata; recipes drawn from the key table with boundary values.
package enum AssetFolderGenerator {
  /// The catalog every generated configuration writes, relative to the asset folder; the
  /// manifest is beside it (`../out/manifest.json`).
  package static let output = "../out/Assets.xcassets"

  /// The folder for `seed`: the same one on every run.
  package static func make(seed: UInt64) throws -> GeneratedAssetFolder {
    var random = PropertyRandom(seed: seed)
    return try make(random: &random)
  }

  /// A folder drawn from `random` (a fuzzer's bytes, or a seed).
  package static func make(random r: inout PropertyRandom) throws -> GeneratedAssetFolder {
    try Vips.initialize()
    var draft = FolderDraft(canHEIF: Vips.canSave(.heif))
    draft.drawTopLevel(&r)
    draft.drawBuiltinRecipes(&r)
    let groupCount = r.int(1...3)
    for group in 0..<groupCount { try draft.drawGroup(group, &r) }
    try draft.drawRoot(&r)
    // Drawn last, so a seed's masters and recipes are those it drew before destinations.
    draft.drawDestinations(&r)
    return draft.folder
  }

  fileprivate static func focusValue(_ r: inout PropertyRandom) -> String {
    r.pick(["0", "1", "0.5", MasterFileFormats.format3(Double(r.int(0...1000)) / 1000)])
  }

  /// Damage with `probability`: truncation (at a byte drawn when encoding), flipped bytes,
  /// text under an image name, or zero bytes.
  static func randomDamage(_ r: inout PropertyRandom, probability: Double)
    -> GeneratedMaster.Damage
  {
    guard r.chance(probability) else { return .none }
    switch r.int(0...5) {
    case 0, 1: return .truncated(0)
    case 2, 3: return .flipped(r.int(1...8))
    case 4: return .text
    default: return .empty
    }
  }

  /// A master of any format, shape, layout, profile and orientation at `path` (no
  /// extension: it is added), maybe damaged.
  static func randomMaster(
    path: String, random r: inout PropertyRandom, limit: Int?, canHEIF: Bool
  ) -> GeneratedMaster {
    var formats: [GeneratedMaster.Format] = [
      .png, .png, .png, .jpeg, .jpeg, .jpeg, .webp, .gif, .tiff, .svg, .svg, .pdf,
    ]
    if canHEIF { formats.append(.heif) }
    let format = r.pick(formats)
    let maxSide = GeneratedMaster.maxSide(format)
    let vector = format == .svg || format == .pdf
    var width: Int
    var height: Int
    var shape = r.int(0...19)
    if (shape == 4 || shape == 5) && (limit == nil || vector) { shape = 19 }
    switch shape {
    case 0, 1:  // tiny: 1×1, 1×2, 2×1
      (width, height) = r.pick([(1, 1), (1, 2), (2, 1)])
    case 2, 3:  // extreme aspect ratio: 1×N or N×1, often the longest the format holds
      let long = r.chance(0.5) ? maxSide : r.int(min(1000, maxSide)...maxSide)
      let short = r.pick([1, 1, 2, 3])
      (width, height) = r.chance(0.5) ? (short, long) : (long, short)
    case 4, 5:  // just under or just over limit-input-pixels
      let limit = limit ?? 1
      let side = r.int(50...min(800, maxSide))
      let other = r.chance(0.5) ? limit / side : limit / side + 1
      (width, height) = r.chance(0.5) ? (side, other) : (other, side)
    case 6:  // medium
      (width, height) = (r.int(200...900), r.int(200...900))
    default:
      (width, height) = (r.int(1...240), r.int(1...240))
    }
    width = min(width, maxSide)
    height = min(height, maxSide)
    let layout = r.pick(GeneratedMaster.layouts(format))
    let profiles = GeneratedMaster.profiles(format, layout)
    let profile = r.chance(0.5) ? .none : r.pick(profiles)
    let orientation = format == .jpeg && r.chance(0.5) ? r.int(1...8) : 1
    let gps = (format == .jpeg || format == .png) && r.chance(0.2)
    let suffix = vector ? "" : r.pick(["", "", "@1x", "@2x", "@3x"])
    return GeneratedMaster(
      path: "\(path)\(suffix).\(format.rawValue)", format: format, width: width, height: height,
      layout: profile == .cmyk ? .rgb : layout, profile: profile, orientation: orientation,
      gps: gps, damage: randomDamage(&r, probability: 0.15))
  }
}

/// A generated folder being drawn: what ``AssetFolderGenerator/make(random:)`` has drawn so
/// far. Each step draws from the random source in a fixed order, so that a seed (or a
/// fuzzer's input) always gives the same folder.
private struct FolderDraft {
  let canHEIF: Bool
  let outputFormats: [String]
  var top: [String] = ["output: \(AssetFolderGenerator.output)"]
  var limit: Int?
  var failOn = FailOn.warning
  var recipes: [String: GeneratedRecipe] = [:]
  var presetCount = 0
  var masters: [GeneratedMaster] = []
  var rules: [String] = []
  var assetFocus: [String] = []
  var defaultRecipes = ["variants"]

  init(canHEIF: Bool) {
    self.canHEIF = canHEIF
    outputFormats = ["auto", "png", "jpeg", "webp"] + (canHEIF ? ["heif"] : [])
  }

  /// Top-level settings, each present by chance.
  mutating func drawTopLevel(_ r: inout PropertyRandom) {
    limit = r.chance(0.4) ? r.int(20_000...250_000) : nil
    if let limit { top.append("limit-input-pixels: \(limit)") }
    if r.chance(0.15) {
      failOn = r.pick(FailOn.allCases)
      top.append("fail-on: \(failOn.rawValue)")
    }
    if r.chance(0.4) { top.append("master-scale: \(r.int(1...3))") }
    if r.chance(0.3) {
      top.append("scales: [" + r.subset([1, 2, 3]).map(String.init).joined(separator: ", ") + "]")
    }
    if r.chance(0.3) { top.append("format: \(r.pick(outputFormats))") }
    if r.chance(0.2) { top.append("quality: \(r.pick([1, 100, r.int(1...100)]))") }
    if r.chance(0.2) { top.append("optimize-coding: \(r.chance(0.5))") }
    if r.chance(0.3) { top.append("kernel: \(r.pick(GeneratedRecipe.kernels))") }
    if r.chance(0.2) { top.append("display-gamut: \(r.pick(["[sRGB]", "[sRGB, display-P3]"]))") }
    if r.chance(0.3) { top.append("concurrency: \(r.pick([0, 1, 2]))") }
    if r.chance(0.2) { top.append("provides-namespace: \(r.chance(0.5))") }
  }

  /// The built-in recipes, some overridden.
  mutating func drawBuiltinRecipes(_ r: inout PropertyRandom) {
    for kind in ["variants", "fit", "fill", "flag", "tile"] {
      recipes[kind] = GeneratedRecipe(name: kind, kind: kind, overridesBuiltin: true, keys: [])
      if r.chance(0.3) {
        recipes[kind] = GeneratedRecipe.make(
          name: kind, kind: kind, overridesBuiltin: true, random: &r, formats: outputFormats)
      }
    }
  }

  /// A new preset of `kind` (named `kind-N`), drawn; its name.
  mutating func newPreset(kind: String, _ r: inout PropertyRandom) -> String {
    presetCount += 1
    let name = "\(kind)-\(presetCount)"
    recipes[name] = GeneratedRecipe.make(
      name: name, kind: kind, overridesBuiltin: false, random: &r, formats: outputFormats)
    return name
  }

  /// Group `group`: a folder with a rule naming its recipes, its masters, and maybe
  /// per-scale masters.
  mutating func drawGroup(_ group: Int, _ r: inout PropertyRandom) throws {
    let folder = r.pick(["G\(group)", "Group \(group)", "Grüße \(group)"])
    drawRule(for: folder, group: group, &r)
    for index in 0..<r.int(1...4) {
      try drawMaster(index, in: folder, group: group, &r)
    }
    // Per-scale masters, used as they are (copied) by variants when plain.
    if group == 0 || r.chance(0.3) {
      try drawPerScaleMasters(in: folder, group: group, &r)
    }
  }

  /// The rule of a group's folder: its recipes (built-ins or new presets), maybe a focus.
  mutating func drawRule(for folder: String, group: Int, _ r: inout PropertyRandom) {
    var names: [String] = []
    // The first group always has a variants recipe, so that per-scale masters are copied.
    if group == 0 || r.chance(0.5) {
      names.append(r.chance(0.5) ? "variants" : newPreset(kind: "variants", &r))
    }
    for _ in 0..<r.int(group == 0 ? 0...2 : 1...3) {
      let kind = r.pick(GeneratedRecipe.boxedKinds)
      let name = r.chance(0.4) ? kind : newPreset(kind: kind, &r)
      if !names.contains(name) { names.append(name) }
    }
    var rule = "  - match: \"\(folder)/**\"\n    recipes: [\(names.joined(separator: ", "))]"
    if r.chance(0.2) {
      rule +=
        "\n    focus: [\(AssetFolderGenerator.focusValue(&r)), \(AssetFolderGenerator.focusValue(&r))]"
    }
    rules.append(rule)
  }

  /// Master `index` of a group, maybe with its own focus and a dark appearance.
  mutating func drawMaster(_ index: Int, in folder: String, group: Int, _ r: inout PropertyRandom)
    throws
  {
    var master = AssetFolderGenerator.randomMaster(
      path: "\(folder)/g\(group)m\(index)", random: &r, limit: limit, canHEIF: canHEIF)
    try master.encode(seed: r.int(0...10_000), random: &r)
    masters.append(master)
    if r.chance(0.1) {
      assetFocus.append(
        "  \"\(folder)/g\(group)m\(index)\": { focus: [\(AssetFolderGenerator.focusValue(&r)), \(AssetFolderGenerator.focusValue(&r))] }"
      )
    }
    // A dark appearance of the same shape.
    if r.chance(0.12), !master.isVector {
      var dark = master
      dark.path = master.path.replacingOccurrences(
        of: "/g\(group)m\(index)", with: "/g\(group)m\(index)~dark")
      dark.damage = r.chance(0.15) ? .truncated(0) : .none
      try dark.encode(seed: r.int(0...10_000), random: &r)
      masters.append(dark)
    }
  }

  /// One or two assets with a master per scale (`Name@2x`, `Name@3x`, or one scale).
  mutating func drawPerScaleMasters(in folder: String, group: Int, _ r: inout PropertyRandom)
    throws
  {
    let pairs = r.int(1...2)
    for pair in 0..<pairs {
      let points = (r.int(1...60), r.int(1...60))
      let format: GeneratedMaster.Format = r.chance(0.7) ? .png : .jpeg
      let layout: GeneratedMaster.Layout =
        format == .png && r.chance(0.3) ? .rgba : .rgb
      for scale in r.chance(0.8) ? [2, 3] : [r.int(1...3)] {
        var master = GeneratedMaster(
          path: "\(folder)/g\(group)pair\(pair)@\(scale)x.\(format.rawValue)", format: format,
          width: points.0 * scale, height: points.1 * scale, layout: layout,
          profile: r.chance(0.15) ? .sRGB : .none, orientation: 1, gps: r.chance(0.25),
          damage: AssetFolderGenerator.randomDamage(&r, probability: 0.25))
        try master.encode(seed: pair * 7 + scale, random: &r)
        masters.append(master)
      }
    }
  }

  /// The destinations beside the catalog, each in about a third of the folders, in the
  /// output folder: `android:` with a subset of the densities and any format, `web:` with
  /// widths from one pixel up and the formats every libvips here writes.
  mutating func drawDestinations(_ r: inout PropertyRandom) {
    if r.chance(0.35) {
      var android = "android:\n  folder: ../out/android/res"
      if r.chance(0.4) {
        let densities = r.subset(["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"])
        android += "\n  densities: [\(densities.joined(separator: ", "))]"
      }
      if r.chance(0.5) { android += "\n  format: \(r.pick(["auto", "png", "webp"]))" }
      top.append(android)
    }
    if r.chance(0.35) {
      var web = "web:\n  folder: ../out/web"
      if r.chance(0.5) {
        let widths = r.subset([1, 7, 64, 320, 1000, r.int(2...3000)]).sorted()
        web += "\n  widths: [\(Set(widths).sorted().map(String.init).joined(separator: ", "))]"
      }
      if r.chance(0.5) {
        web += "\n  formats: [\(r.subset(["webp", "auto", "jpeg", "png"]).joined(separator: ", "))]"
      }
      top.append(web)
    }
  }

  /// Masters at the root, which get the default recipes (maybe more than `variants`).
  mutating func drawRoot(_ r: inout PropertyRandom) throws {
    if r.chance(0.4) {
      let second = r.chance(0.5) ? "tile" : newPreset(kind: "fill", &r)
      defaultRecipes = ["variants", second]
    }
    for index in 0..<r.int(0...2) {
      var master = AssetFolderGenerator.randomMaster(
        path: "root\(index)", random: &r, limit: limit, canHEIF: canHEIF)
      try master.encode(seed: r.int(0...10_000), random: &r)
      masters.append(master)
    }
  }

  /// The folder drawn: its configuration written out.
  var folder: GeneratedAssetFolder {
    var config = top.joined(separator: "\n") + "\n"
    config += "default-recipes: [\(defaultRecipes.joined(separator: ", "))]\n"
    config += "rules:\n" + rules.joined(separator: "\n") + "\n"
    let written = recipes.values.filter { !$0.overridesBuiltin || !$0.keys.isEmpty }
      .sorted { $0.name < $1.name }
    if !written.isEmpty {
      config += "recipes:\n" + written.map { "  " + $0.yaml }.joined(separator: "\n") + "\n"
    }
    if !assetFocus.isEmpty { config += "assets:\n" + assetFocus.joined(separator: "\n") + "\n" }
    return GeneratedAssetFolder(
      config: config, masters: masters, recipes: recipes, failOn: failOn,
      limitInputPixels: limit)
  }
}
