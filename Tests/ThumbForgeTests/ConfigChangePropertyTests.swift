import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge

/// `check`'s promise, tested against its ground truth: for single configuration changes (every
/// recipe key of ``RecipeParameter/all``, two values each, and the top-level settings that
/// shape outputs), `check` on a catalog built with the old configuration exits 1 whenever a
/// fresh build with the new configuration differs in any image or `Contents.json`, and a
/// rebuild then equals that fresh build byte for byte (catalog and manifest).
@Suite("Configuration changes and check")
struct ConfigChangePropertyTests {
  /// One change: where it goes (a recipe's mapping, or the top level) and its YAML.
  struct Change: CustomTestStringConvertible, Sendable {
    var recipe: String?
    var yaml: String
    var testDescription: String { recipe.map { "\($0): { \(yaml) }" } ?? yaml }
  }

  /// Two values of every recipe key, each set on a recipe of a kind that accepts it.
  static let valuesByKey: [String: (recipes: [String], values: [String])] = [
    "size": (["fill", "fit"], ["[80, 50]", "30"]),
    "scales": (["variants", "tile"], ["[1]", "[1, 2, 3]"]),
    "gravity": (["fill", "flag"], ["north", "attention"]),
    "pad": (["fit", "fit"], ["true", "false"]),
    "background": (["fit", "variants"], ["\"#ff0000\"", "clear"]),
    "radius": (["tile", "flag"], ["6", "0"]),
    "corner-style": (["flag", "flag"], ["continuous", "circular"]),
    "stroke-width": (["flag", "fill"], ["2", "0"]),
    "stroke-color": (["flag", "flag"], ["\"#00ff00\"", "\"#0000ff80\""]),
    "stroke-alignment": (["flag", "flag"], ["center", "inside"]),
    "upscale": (["fill", "tile"], ["never", "keep"]),
    "kernel": (["variants", "fill"], ["nearest", "cubic"]),
    "keep-vector": (["variants", "variants"], ["true", "false"]),
    "format": (["fill", "variants"], ["webp", "png"]),
    "quality": (["fill", "variants"], ["50", "95"]),
    "optimize-coding": (["fill", "fill"], ["false", "true"]),
    "keep-metadata": (["variants", "fill"], ["true", "false"]),
    "template-rendering-intent": (["variants", "flag"], ["template", "original"]),
    "compression-type": (["variants", "tile"], ["lossless", "gpu-optimized-best"]),
    "preserves-vector-representation": (["variants", "fit"], ["true", "false"]),
    "display-gamut": (["variants", "fill"], ["[sRGB, display-P3]", "[sRGB]"]),
    "icon-layout": (["appicon", "appicon"], ["per-size", "single"]),
    "icon-platforms": (["appicon", "appicon"], ["[ios, macos]", "[macos]"]),
  ]

  /// Top-level settings that change what is planned or written.
  static let topLevel = [
    "scales: [1, 2]", "format: png", "quality: 60", "kernel: linear", "optimize-coding: false",
    "master-scale: 2", "provides-namespace: true", "fail-on: none",
    "naming: { recipe: \"{recipe}-{asset}\" }", "dark-suffix: \"-night\"",
    "display-gamut: [sRGB, display-P3]",
  ]

  static let changes: [Change] =
    RecipeParameter.all.flatMap { parameter -> [Change] in
      guard let entry = valuesByKey[parameter.key] else { return [] }
      return zip(entry.recipes, entry.values).map {
        Change(recipe: $0, yaml: "\(parameter.key): \($1)")
      }
    } + topLevel.map { Change(recipe: nil, yaml: $0) }

  static let baseRecipes: [String: String] = [
    "fit": "size: [100, 80]", "fill": "size: [90, 60]", "tile": "size: [50, 50]",
  ]

  static func config(with change: Change?) -> String {
    var lines = [
      "rules:", "  - match: \"Icon-night*\"", "    recipes: [appicon]", "  - match: \"**\"",
      "    recipes: [variants, fit, fill, flag, tile]",
    ]
    if let change, change.recipe == nil { lines.insert(change.yaml, at: 0) }
    lines.append("recipes:")
    for name in ["variants", "fit", "fill", "flag", "tile", "appicon"] {
      var items = [baseRecipes[name]].compactMap { $0 }
      if let change, change.recipe == name {
        let key = change.yaml.prefix { $0 != ":" }
        items = items.filter { !$0.hasPrefix(key + ":") } + [change.yaml]
      }
      lines.append("  \(name): { \(items.joined(separator: ", ")) }")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("every key of the recipe table has two values in this test")
  func everyKeyIsCovered() {
    for parameter in RecipeParameter.all {
      #expect(Self.valuesByKey[parameter.key] != nil, "add \(parameter.key) to valuesByKey")
      for recipe in Self.valuesByKey[parameter.key]?.recipes ?? [] {
        let kind = Config().recipes[recipe]!.kind
        #expect(parameter.kinds.contains(kind), "\(parameter.key) on \(recipe)")
      }
    }
  }

  @Test(
    "check fails whenever a fresh build differs; a rebuild equals the fresh build",
    arguments: changes)
  func changeIsNeverMissed(_ change: Change) throws {
    let root = try Fixtures.temporaryDirectory(prefix: "thumbforge-change")
    defer { try? FileManager.default.removeItem(at: root) }
    let assets = root.appendingPathComponent("assets")
    try Self.writeMasters(into: assets)
    let old = try Self.build(assets, config: Self.config(with: nil), in: root, named: "old")
    let new = Self.config(with: change)
    let fresh = try Self.build(assets, config: new, in: root, named: "fresh")
    let differs = !Self.differences(old.catalog, fresh.catalog).isEmpty

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
  /// and a dark appearance, and a square picture made an app icon.
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
