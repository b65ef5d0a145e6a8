internal import Vips
internal import Yams

/// Turns a parsed YAML tree into a ``Config``: the key table of the file format.
struct ConfigReader {
  let file: String

  static let topKeys: Set<String> = [
    "output", "manifest", "swift", "master-scale", "scales", "format", "quality", "rules",
    "recipes", "default-recipes", "concurrency", "limit-input-pixels", "fail-on",
    "provides-namespace", "naming", "dark-suffix", "kernel", "optimize-coding",
  ]

  static let recipeKeys: Set<String> = [
    "kind", "size", "scales", "gravity", "pad", "background", "radius", "corner-style",
    "stroke-width", "stroke-color", "stroke-alignment", "format", "quality", "upscale",
    "keep-metadata", "template-rendering-intent", "compression-type",
    "preserves-vector-representation", "kernel", "keep-vector", "optimize-coding",
  ]

  func read(_ root: ConfigNode) throws(ConfigError) -> Config {
    var config = Config()
    let pairs = try root.mapping(allowed: Self.topKeys)
    var defaults = Recipe.builtin(.variants)
    var rulesNode: ConfigNode?
    var recipesNode: ConfigNode?
    var defaultRecipesNode: ConfigNode?
    for (key, node) in pairs {
      switch key {
      case "output":
        config.output = try nonEmpty(node)
        config.outputLine = node.line
      case "manifest": config.manifest = try nonEmpty(node)
      case "swift": config.swift = try nonEmpty(node)
      case "master-scale": config.masterScale = try node.int(in: 1...3)
      case "scales": defaults.scales = try scales(node)
      case "format": defaults.format = try node.choice(OutputFormat.self)
      case "quality": defaults.quality = try node.int(in: 1...100)
      case "optimize-coding": defaults.optimizeCoding = try node.bool()
      case "kernel": defaults.kernel = try node.choice(Kernel.self)
      case "concurrency": config.concurrency = try node.int(in: 0...256)
      case "limit-input-pixels": config.limitInputPixels = try node.int(in: 1...Int.max)
      case "fail-on": config.failOn = try node.choice(FailOn.self)
      case "provides-namespace": config.providesNamespace = try node.bool()
      case "dark-suffix": config.darkSuffix = try nonEmpty(node)
      case "naming":
        for (name, value) in try node.mapping(allowed: ["variants", "recipe"]) {
          let template = try nonEmpty(value)
          guard template.contains("{asset}") else { throw value.error("must contain {asset}") }
          if name == "variants" {
            config.variantsName = template
          } else {
            config.recipeName = template
          }
        }
      case "rules": rulesNode = node
      case "recipes": recipesNode = node
      case "default-recipes": defaultRecipesNode = node
      default: break
      }
    }
    // Top-level scales, format and quality are the defaults of every recipe.
    for (name, var recipe) in config.recipes {
      recipe.scales = defaults.scales
      if recipe.kind != .flag { recipe.format = defaults.format }
      recipe.quality = defaults.quality
      recipe.optimizeCoding = defaults.optimizeCoding
      recipe.kernel = defaults.kernel
      config.recipes[name] = recipe
    }
    if let recipesNode {
      for (name, node) in try recipesNode.mapping() {
        config.recipes[name] = try recipe(
          named: name, node, base: config.recipes[name], defaults: defaults)
      }
    }
    if let rulesNode {
      config.rules = try rules(rulesNode, known: config.recipes)
    }
    if let defaultRecipesNode {
      config.defaultRecipes = try recipeNames(defaultRecipesNode, known: config.recipes)
    }
    return config
  }

  private func rules(_ node: ConfigNode, known: [String: Recipe]) throws(ConfigError) -> [Rule] {
    var rules: [Rule] = []
    for item in try node.sequence() {
      var match: String?
      var recipes: [String]?
      for (key, value) in try item.mapping(allowed: ["match", "recipes"]) {
        if key == "match" {
          let pattern = try nonEmpty(value)
          do { _ = try Glob(pattern) } catch { throw value.error(error.message) }
          match = pattern
        } else {
          recipes = try recipeNames(value, known: known)
        }
      }
      guard let match else { throw item.error("a rule needs 'match'") }
      rules.append(Rule(match: match, recipes: recipes ?? ["variants"]))
    }
    return rules
  }

  private func recipeNames(_ node: ConfigNode, known: [String: Recipe]) throws(ConfigError)
    -> [String]
  {
    let names = try node.strings()
    if names.isEmpty { throw node.error("list at least one recipe") }
    for name in names where known[name] == nil {
      throw node.error(
        "unknown recipe '\(name)' (known: \(known.keys.sorted().joined(separator: ", ")))")
    }
    if Set(names).count != names.count { throw node.error("a recipe is listed twice") }
    return names
  }

  private func recipe(named name: String, _ node: ConfigNode, base: Recipe?, defaults: Recipe)
    throws(ConfigError) -> Recipe
  {
    let pairs = try node.mapping(allowed: Self.recipeKeys)
    var recipe: Recipe
    if let kindNode = pairs.first(where: { $0.0 == "kind" })?.1 {
      let kind = try kindNode.choice(RecipeKind.self)
      recipe = base?.kind == kind ? base! : .builtin(kind, name: name)
    } else if let base {
      recipe = base
    } else {
      throw node.error(
        "a new recipe needs 'kind' (one of: \(RecipeKind.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    recipe.name = name
    if base == nil || base?.kind != recipe.kind {
      recipe.scales = defaults.scales
      recipe.quality = defaults.quality
      recipe.optimizeCoding = defaults.optimizeCoding
      recipe.kernel = defaults.kernel
      if recipe.kind != .flag { recipe.format = defaults.format }
    }
    for (key, value) in pairs {
      switch key {
      case "kind": break
      case "size": recipe.size = try size(value)
      case "scales": recipe.scales = try scales(value)
      case "gravity":
        let text = try value.string()
        guard let gravity = Gravity(name: text) else {
          throw value.error(
            "'\(text)' is not one of: \(Gravity.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        recipe.gravity = gravity
      case "pad": recipe.pad = try value.bool()
      case "background": recipe.background = try color(value)
      case "radius": recipe.cornerRadius = try value.double()
      case "corner-style": recipe.cornerStyle = try value.choice(CornerStyle.self)
      case "stroke-width": recipe.strokeWidth = try value.double()
      case "stroke-color": recipe.strokeColor = try color(value)
      case "stroke-alignment": recipe.strokeAlignment = try value.choice(StrokeAlignment.self)
      case "format": recipe.format = try value.choice(OutputFormat.self)
      case "quality": recipe.quality = try value.int(in: 1...100)
      case "optimize-coding": recipe.optimizeCoding = try value.bool()
      case "upscale": recipe.upscale = try value.choice(UpscalePolicy.self)
      case "kernel": recipe.kernel = try value.choice(Kernel.self)
      case "keep-vector": recipe.keepVector = try value.bool()
      case "keep-metadata": recipe.keepMetadata = try value.bool()
      case "template-rendering-intent":
        let intent = try value.string()
        guard ["original", "template"].contains(intent) else {
          throw value.error("'\(intent)' is not one of: original, template")
        }
        recipe.templateRenderingIntent = intent
      case "compression-type": recipe.compressionType = try nonEmpty(value)
      case "preserves-vector-representation":
        recipe.preservesVectorRepresentation = try value.bool()
      default: break
      }
    }
    try validate(recipe, node)
    return recipe
  }

  private func validate(_ recipe: Recipe, _ node: ConfigNode) throws(ConfigError) {
    guard recipe.kind != .variants else { return }
    let short = min(recipe.size.width, recipe.size.height)
    if recipe.cornerRadius > short / 2 {
      throw ConfigError(
        file: file, line: node.line, key: "\(node.path).radius",
        message:
          "radius \(recipe.cornerRadius) is larger than half the short side (\(short / 2) pt)")
    }
    if recipe.strokeWidth > 0 && recipe.strokeWidth * 2 >= short {
      throw ConfigError(
        file: file, line: node.line, key: "\(node.path).stroke-width",
        message: "stroke-width \(recipe.strokeWidth) leaves no room inside a \(recipe.size)")
    }
    if recipe.kind == .flag && recipe.format == .jpeg {
      throw ConfigError(
        file: file, line: node.line, key: "\(node.path).format",
        message: "flag outputs need alpha; jpeg has none")
    }
  }

  private func size(_ node: ConfigNode) throws(ConfigError) -> PointSize {
    if case .scalar = node.node {
      let side = try node.double(allowZero: false)
      return PointSize(width: side, height: side)
    }
    let items = try node.sequence()
    guard items.count == 2 else { throw node.error("expected [width, height] in points") }
    return PointSize(
      width: try items[0].double(allowZero: false), height: try items[1].double(allowZero: false))
  }

  private func scales(_ node: ConfigNode) throws(ConfigError) -> [Int] {
    var scales: [Int] = []
    for item in try node.sequence() {
      let scale = try item.int(in: 1...3)
      if scales.contains(scale) { throw item.error("scale \(scale) is listed twice") }
      scales.append(scale)
    }
    if scales.isEmpty { throw node.error("list at least one scale (1, 2 or 3)") }
    return scales.sorted()
  }

  private func color(_ node: ConfigNode) throws(ConfigError) -> RGBAColor {
    let text = try node.string()
    guard let color = RGBAColor(parsing: text) else {
      throw node.error("'\(text)' is not a colour (#RRGGBB, #RRGGBBAA, black, white, clear)")
    }
    return color
  }

  private func nonEmpty(_ node: ConfigNode) throws(ConfigError) -> String {
    let text = try node.string()
    if text.isEmpty { throw node.error("must not be empty") }
    return text
  }
}
