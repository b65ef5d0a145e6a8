import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig

/// `check`'s promise, tested against its ground truth: for single configuration changes (every
/// recipe key of ``RecipeParameter/all``, two values each, and the top-level settings that
/// shape outputs), the change alters the build (docs/configuration.md says every key affects output), and
/// `check` on a catalog built with the old configuration exits 1, and a rebuild then equals a
/// fresh build with the new configuration byte for byte (catalog and manifest).
@Suite("Configuration changes and check")
struct ConfigChangePropertyTests {
  /// One change: where it goes (a recipe's mapping, or the top level) and its YAML, and the
  /// YAML of that recipe's key before the change where the default is the new value (so that
  /// the change is a change: `pad: true` → `pad: false`).
  struct Change: CustomTestStringConvertible, Sendable {
    var recipe: String?
    var yaml: String
    var before: String?
    var testDescription: String {
      let change = before.map { "\($0) → \(yaml)" } ?? yaml
      return recipe.map { "\($0): { \(change) }" } ?? change
    }
  }

  /// One value of a key, on a recipe of a kind that accepts it, and what the recipe has
  /// before the change when the value is the recipe's default or shows only together with
  /// another key (`background` shows in `pad`'s letterbox).
  struct Value: Sendable {
    var recipe: String
    var value: String
    var before: String? = nil
  }

  /// Two values of every recipe key, each set on a recipe of a kind that accepts it, each
  /// chosen so that this test's masters show it.
  static let valuesByKey: [String: [Value]] = [
    "size": [Value(recipe: "fill", value: "[80, 50]"), Value(recipe: "fit", value: "30")],
    "scales": [Value(recipe: "variants", value: "[1]"), Value(recipe: "tile", value: "[1, 2, 3]")],
    "gravity": [
      Value(recipe: "fill", value: "north"), Value(recipe: "flag", value: "attention"),
    ],
    "pad": [
      Value(recipe: "fit", value: "true"),
      Value(recipe: "fit", value: "false", before: "pad: true"),
    ],
    "background": [
      Value(recipe: "fit", value: "\"#ff0000\"", before: "pad: true"),
      Value(recipe: "fit", value: "clear", before: "pad: true"),
    ],
    "radius": [Value(recipe: "tile", value: "6"), Value(recipe: "flag", value: "0")],
    "corner-style": [
      Value(recipe: "flag", value: "continuous"),
      Value(recipe: "flag", value: "circular", before: "corner-style: continuous"),
    ],
    "stroke-width": [Value(recipe: "flag", value: "2"), Value(recipe: "flag", value: "0")],
    "stroke-color": [
      Value(recipe: "flag", value: "\"#00ff00\""), Value(recipe: "flag", value: "\"#0000ff80\""),
    ],
    "stroke-alignment": [
      Value(recipe: "flag", value: "center"),
      Value(recipe: "flag", value: "inside", before: "stroke-alignment: center"),
    ],
    "upscale": [Value(recipe: "fill", value: "never"), Value(recipe: "tile", value: "keep")],
    "kernel": [Value(recipe: "fit", value: "nearest"), Value(recipe: "fill", value: "cubic")],
    "keep-vector": [
      Value(recipe: "variants", value: "true"),
      Value(recipe: "variants", value: "false", before: "keep-vector: true"),
    ],
    "format": [Value(recipe: "fill", value: "webp"), Value(recipe: "variants", value: "png")],
    "quality": [Value(recipe: "fill", value: "50"), Value(recipe: "fit", value: "95")],
    "optimize-coding": [
      Value(recipe: "fill", value: "false"),
      Value(recipe: "fill", value: "true", before: "optimize-coding: false"),
    ],
    "keep-metadata": [
      Value(recipe: "fill", value: "true"),
      Value(recipe: "fit", value: "false", before: "keep-metadata: true"),
    ],
    "template-rendering-intent": [
      Value(recipe: "variants", value: "template"), Value(recipe: "flag", value: "original"),
    ],
    "compression-type": [
      Value(recipe: "variants", value: "lossless"),
      Value(recipe: "tile", value: "gpu-optimized-best"),
    ],
    "preserves-vector-representation": [
      Value(recipe: "variants", value: "true"),
      Value(recipe: "fit", value: "false", before: "preserves-vector-representation: true"),
    ],
    "display-gamut": [
      Value(recipe: "variants", value: "[sRGB, display-P3]"),
      Value(recipe: "fill", value: "[sRGB]", before: "display-gamut: [sRGB, display-P3]"),
    ],
    "icon-layout": [
      Value(recipe: "appicon", value: "per-size"),
      Value(recipe: "appicon", value: "single", before: "icon-layout: per-size"),
    ],
    "icon-platforms": [
      Value(recipe: "appicon", value: "[ios, macos]"), Value(recipe: "appicon", value: "[macos]"),
    ],
  ]

  /// Top-level settings that change what is planned or written.
  static let topLevel = [
    "scales: [1, 2]", "format: png", "quality: 60", "kernel: linear", "optimize-coding: false",
    "master-scale: 2", "provides-namespace: true", "fail-on: none",
    "naming: { recipe: \"{recipe}-{asset}\" }", "dark-suffix: \"-night\"",
    "display-gamut: [sRGB, display-P3]",
  ]

  /// Changes that cannot alter this test's build, and why: they are still checked (`check`
  /// agrees with a fresh build), but not required to differ.
  static let exempt: [String: String] = [
    "fail-on: none":
      "fail-on matters only for a damaged master, and a damaged master would make the old build report a problem, which every build of this test must not (BadInputTests covers damaged masters)"
  ]

  static let changes: [Change] =
    RecipeParameter.all.flatMap { parameter -> [Change] in
      (valuesByKey[parameter.key] ?? []).map {
        Change(recipe: $0.recipe, yaml: "\(parameter.key): \($0.value)", before: $0.before)
      }
    } + topLevel.map { Change(recipe: nil, yaml: $0) }

  static let baseRecipes: [String: String] = [
    "fit": "size: [100, 80]", "fill": "size: [90, 60]", "tile": "size: [50, 50]",
  ]

  /// The configuration before `change` (`after: false`) or after it.
  static func config(with change: Change, after: Bool) -> String {
    var lines = [
      "rules:", "  - match: \"Icon-night*\"", "    recipes: [appicon]", "  - match: \"**\"",
      "    recipes: [variants, fit, fill, flag, tile]",
    ]
    if after, change.recipe == nil { lines.insert(change.yaml, at: 0) }
    lines.append("recipes:")
    for name in ["variants", "fit", "fill", "flag", "tile", "appicon"] {
      var items = [baseRecipes[name]].compactMap { $0 }
      if change.recipe == name {
        items += [change.before].compactMap { $0 }
        if after {
          let key = change.yaml.prefix { $0 != ":" }
          items = items.filter { !$0.hasPrefix(key + ":") } + [change.yaml]
        }
      }
      lines.append("  \(name): { \(items.joined(separator: ", ")) }")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("every key of the recipe table has two values in this test")
  func everyKeyIsCovered() {
    for parameter in RecipeParameter.all {
      #expect(Self.valuesByKey[parameter.key]?.count == 2, "add \(parameter.key) to valuesByKey")
      for value in Self.valuesByKey[parameter.key] ?? [] {
        let recipe = value.recipe
        let kind = Config().recipes[recipe]!.kind
        #expect(parameter.kinds.contains(kind), "\(parameter.key) on \(recipe)")
      }
    }
  }

  @Test(
    "every change alters the build; check fails on the old build; a rebuild equals a fresh one",
    arguments: changes)
  func changeIsNeverMissed(_ change: Change) throws {
    let root = try Fixtures.temporaryDirectory(prefix: "thumbforge-change")
    defer { try? FileManager.default.removeItem(at: root) }
    let assets = root.appendingPathComponent("assets")
    try Self.writeMasters(into: assets)
    let before = Self.config(with: change, after: false)
    let old = try Self.build(assets, config: before, in: root, named: "old")
    let new = Self.config(with: change, after: true)
    let fresh = try Self.build(assets, config: new, in: root, named: "fresh")
    let differs = !Self.differences(old.catalog, fresh.catalog).isEmpty
    let exemption = change.recipe == nil ? Self.exempt[change.yaml] : nil
    #expect(differs || exemption != nil, "the change did not alter the build:\n\(new)")

    let check = try Self.engine(assets, config: new, in: root, named: "old", mode: .check).run()
    if differs {
      #expect(check.exitCode == 1, "check missed a change of the catalog")
    }
    let rebuilt = try Self.build(assets, config: new, in: root, named: "old")
    #expect(Self.differences(rebuilt.catalog, fresh.catalog) == [])
    #expect(
      try Data(contentsOf: rebuilt.manifest) == Data(contentsOf: fresh.manifest),
      "manifests differ")
    let again = try Self.engine(assets, config: new, in: root, named: "old", mode: .check).run()
    #expect(again.exitCode == 0, "\(again.stale)")
  }

  /// A Display P3 photo (only a 2x master), a vector master, a per-scale PNG icon with alpha
  /// and a dark appearance, a square picture made an app icon, and a master without a scale
  /// suffix (which `master-scale` sizes).
  static func writeMasters(into assets: URL) throws {
    try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
    let photo = try Fixtures.displayP3(Fixtures.gradient(width: 360, height: 240))
    try Fixtures.write(
      photo, as: .jpeg, named: "Photo@2x", in: assets,
      options: SaveOptions(quality: 90, keepProfile: true))
    try FileManager.default.createDirectory(
      at: assets.appendingPathComponent("Flags"), withIntermediateDirectories: true)
    try Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 60 40">\
      <rect width="60" height="40" fill="#c8102e"/><rect y="13" width="60" height="14" fill="#fff"/></svg>
      """.utf8
    ).write(to: assets.appendingPathComponent("Flags/Austria.svg"))
    let icon = try Fixtures.quadrants(width: 64, height: 64).addingAlpha()
    try Fixtures.write(icon, as: .png, named: "Icon@2x", in: assets)
    try Fixtures.write(
      try Fixtures.quadrants(width: 96, height: 96), as: .png, named: "Icon@3x", in: assets)
    try Fixtures.write(
      try Fixtures.gradient(width: 64, height: 64), as: .png, named: "Icon-night@2x", in: assets)
    try Fixtures.write(
      try Fixtures.gradient(width: 64, height: 64), as: .png, named: "Icon~dark@2x", in: assets)
    try Fixtures.write(
      try Fixtures.quadrants(width: 48, height: 48), as: .png, named: "Badge", in: assets)
  }

  static func engine(
    _ assets: URL, config: String, in root: URL, named name: String, mode: BuildMode
  ) throws -> BuildEngine {
    let configFile = root.appendingPathComponent("\(name).yml")
    try Data(config.utf8).write(to: configFile)
    var options = BuildOptions(folder: assets)
    options.configFile = configFile
    options.output = root.appendingPathComponent("\(name)/Assets.xcassets")
    options.mode = mode
    options.jobs = 1
    return try BuildEngine(options: options)
  }

  static func build(_ assets: URL, config: String, in root: URL, named name: String) throws
    -> Workspace
  {
    let engine = try engine(assets, config: config, in: root, named: name, mode: .build)
    let report = try engine.run()
    #expect(report.failed == 0 && report.problems.isEmpty, "\(report.problems)")
    return engine.workspace
  }

  /// The relative paths of files that differ between two catalogs, or are in only one.
  static func differences(_ a: URL, _ b: URL) -> [String] {
    let (filesA, filesB) = (catalogFiles(a), catalogFiles(b))
    return Set(filesA.keys).union(filesB.keys).filter { filesA[$0] != filesB[$0] }.sorted()
  }

  /// Every file of a catalog by relative path.
  static func catalogFiles(_ catalog: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let base = catalog.resolvingSymlinksInPath().path
    for case let item as String in FileManager.default.enumerator(atPath: base)?.allObjects ?? [] {
      var isFolder: ObjCBool = false
      let path = base + "/" + item
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        files[item] = FileManager.default.contents(atPath: path)
      }
    }
    return files
  }
}
