import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig

@Suite("Configuration")
struct ConfigTests {
  @Test("an empty file gives the defaults that reproduce the reference apps")
  func defaults() throws {
    let config = try ConfigLoader.parse("", file: "thumbforge.yml")
    #expect(config.masterScale == 3)
    #expect(config.defaultRecipes == ["variants"])
    let flag = try #require(config.recipes["flag"])
    #expect(flag.size == PointSize(width: 40, height: 25))
    #expect(flag.cornerRadius == 5 && flag.strokeWidth == 1 && flag.strokeColor == .black)
    #expect(flag.strokeAlignment == .inside && flag.format == .png && flag.scales == [2, 3])
    #expect(config.recipes["tile"]?.size == PointSize(width: 300, height: 300))
    #expect(config.recipes["fill"]?.gravity == .center)
    #expect(config.recipes["fit"]?.upscale == .warn)
  }

  @Test("a rule's focus is [x, y], fractions from 0 to 1; anything else is an error with its line")
  func focus() throws {
    let config = try ConfigLoader.parse(
      "rules:\n  - match: \"**\"\n    recipes: [fill]\n    focus: [0.25, 1]\n", file: "t.yml")
    #expect(config.rules[0].focus == FocusPoint(x: 0.25, y: 1))
    for bad in ["[0.5]", "[0.5, 1.5]", "[-0.1, 0.5]", "0.5", "[a, b]", "[0.1, 0.2, 0.3]"] {
      #expect {
        try ConfigLoader.parse(
          "rules:\n  - match: \"**\"\n    recipes: [fill]\n    focus: \(bad)\n", file: "t.yml")
      } throws: { error in
        "\(error)".contains("t.yml:4: rules[0].focus: expected [x, y], each a fraction")
      }
    }
  }

  @Test("assets: an asset's own focus; unknown keys and bad points are errors with their line")
  func assetFocus() throws {
    let config = try ConfigLoader.parse(
      "assets:\n  Resorts/Aspen: { focus: [0.75, 0.25] }\n  Logo:\n    focus: [0, 1]\n",
      file: "t.yml")
    #expect(config.assetFocus["Resorts/Aspen"] == FocusPoint(x: 0.75, y: 0.25))
    #expect(config.assetFocus["Logo"] == FocusPoint(x: 0, y: 1))
    for (bad, message) in [
      ("assets:\n  Logo: { focus: [2, 0] }\n", "t.yml:2: assets.Logo.focus: expected [x, y]"),
      ("assets:\n  Logo: { gravity: north }\n", "t.yml:2: assets.Logo"),
      ("assets: [Logo]\n", "t.yml:1: assets"),
    ] {
      #expect {
        try ConfigLoader.parse(bad, file: "t.yml")
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }

  @Test("optimize-coding is on by default, off at the top level or per recipe")
  func optimizeCoding() throws {
    let defaults = try ConfigLoader.parse("", file: "thumbforge.yml")
    #expect(defaults.recipes.values.allSatisfy { $0.optimizeCoding })
    let text = """
      optimize-coding: false
      recipes:
        fill: { optimize-coding: true }
        hero: { kind: fit, size: 100 }
      """
    let config = try ConfigLoader.parse(text, file: "thumbforge.yml")
    #expect(config.recipes["variants"]?.optimizeCoding == false)
    #expect(config.recipes["hero"]?.optimizeCoding == false)
    #expect(config.recipes["fill"]?.optimizeCoding == true)
    #expect(throws: ConfigError.self) {
      try ConfigLoader.parse("optimize-coding: maybe", file: "thumbforge.yml")
    }
  }

  @Test("rules, presets, top-level defaults and naming are read")
  func fullFile() throws {
    let text = """
      output: ../Build/App.xcassets
      master-scale: 2
      scales: [1, 2, 3]
      quality: 90
      provides-namespace: true
      naming: { recipe: "{asset}_{recipe}" }
      rules:
        - match: "Flags/**"
          recipes: [variants, flag]
        - match: "Resorts/*.jpg"
          recipes: [hero, tile]
      recipes:
        hero: { kind: fit, size: [1024, 1366], scales: [2], pad: true, background: "#102030" }
        flag: { radius: 6, corner-style: continuous, stroke-alignment: center, stroke-color: "#FF000080" }
      """
    let config = try ConfigLoader.parse(text, file: "thumbforge.yml")
    #expect(
      config.output == "../Build/App.xcassets" && config.masterScale == 2
        && config.providesNamespace)
    #expect(
      config.rules == [
        Rule(match: "Flags/**", recipes: ["variants", "flag"]),
        Rule(match: "Resorts/*.jpg", recipes: ["hero", "tile"]),
      ])
    let hero = try #require(config.recipes["hero"])
    #expect(hero.kind == .fit && hero.scales == [2] && hero.pad && hero.quality == 90)
    #expect(hero.background == RGBAColor(red: 0x10, green: 0x20, blue: 0x30))
    let flag = try #require(config.recipes["flag"])
    #expect(
      flag.cornerRadius == 6 && flag.cornerStyle == .continuous && flag.strokeAlignment == .center)
    #expect(flag.strokeColor == RGBAColor(red: 255, green: 0, blue: 0, alpha: 0x80))
    #expect(flag.scales == [1, 2, 3])
    #expect(config.imageSetName(asset: "Italy", recipe: "flag") == "Italy_flag")
    #expect(config.imageSetName(asset: "Italy", recipe: "variants") == "Italy")
  }

  @Test("JSON is accepted")
  func json() throws {
    let config = try ConfigLoader.parse(
      #"{"master-scale": 2, "rules": [{"match": "**", "recipes": ["tile"]}]}"#,
      file: "thumbforge.json")
    #expect(config.masterScale == 2 && config.rules.first?.recipes == ["tile"])
  }

  @Test(
    "bad values are errors naming file, line and key",
    arguments: [
      ("outptu: x\n", 1, "outptu", "unknown key"),
      ("scales: [2, 0]\n", 1, "scales[1]", "out of range"),
      ("master-scale: two\n", 1, "master-scale", "expected an integer"),
      ("recipes:\n  tile:\n    size: [0, 10]\n", 3, "recipes.tile.size[0]", "greater than zero"),
      ("recipes:\n  tile:\n    size: -4\n", 3, "recipes.tile.size", "greater than zero"),
      (
        "recipes:\n  flag:\n    radius: 20\n", 3, "recipes.flag.radius",
        "larger than half the short side"
      ),
      ("recipes:\n  hero: { size: 10 }\n", 2, "recipes.hero", "needs 'kind'"),
      ("recipes:\n  fill:\n    gravity: middle\n", 3, "recipes.fill.gravity", "not one of"),
      ("rules:\n  - match: x\n    recipes: [flg]\n", 3, "rules[0].recipes", "unknown recipe 'flg'"),
      ("quality: 0\n", 1, "quality", "out of range"),
      ("recipes:\n  tile:\n    colour: red\n", 3, "recipes.tile.colour", "unknown key"),
      ("rules: [\n", 2, "", "not valid YAML"),
    ])
  func errors(text: String, line: Int, key: String, message: String) {
    do {
      _ = try ConfigLoader.parse(text, file: "thumbforge.yml")
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.key == key, "\(error)")
      #expect(error.message.contains(message), "\(error)")
      #expect(error.description.hasPrefix("thumbforge.yml:\(line): "))
    }
  }

  @Test("colours parse in every documented spelling")
  func colours() {
    #expect(RGBAColor(parsing: "#fff") == .white)
    #expect(RGBAColor(parsing: "#000000") == .black)
    #expect(RGBAColor(parsing: "clear") == .clear)
    #expect(RGBAColor(parsing: "#12345678")?.alpha == 0x78)
    #expect(RGBAColor(parsing: "red") == nil)
    #expect(RGBAColor(parsing: "#12345") == nil)
    #expect(RGBAColor.black.description == "#000000FF")
  }
}
