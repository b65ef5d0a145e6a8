internal import ThumbForgeBasics
internal import Vips
internal import Yams

/// Turns a parsed YAML tree into a ``Config``, with the keys, types, defaults and messages
/// of ``Setting/all`` and ``RecipeParameter/all``.
struct ConfigReader {
  let file: String

  /// The keys the top level accepts: every setting and every recipe default.
  static let topKeys = Set(Setting.all.map(\.key)).union(RecipeParameter.topLevelKeys)

  func read(_ root: ConfigNode) throws(ConfigError) -> Config {
    var config = Config()
    var defaults = Recipe.builtin(.variants)
    var structure: [String: ConfigNode] = [:]
    for (key, node) in try root.mapping(allowed: Self.topKeys) {
      if let setting = Setting.byKey[key] {
        if let read = setting.read { try read(node, &config) } else { structure[key] = node }
      } else if let parameter = RecipeParameter.byKey[key] {
        try parameter.read(node, &defaults)
      }
    }
    // Top-level recipe keys are the defaults of every recipe of the kinds they apply to.
    for (name, recipe) in config.recipes {
      config.recipes[name] = inheriting(defaults, into: recipe)
    }
    if let recipesNode = structure["recipes"] {
      for (name, node) in try recipesNode.mapping() {
        config.recipes[name] = try recipe(
          named: name, node, base: config.recipes[name], defaults: defaults)
        config.lines.recipes[name] = node.namingLine
      }
    }
    if let rulesNode = structure["rules"] {
      config.rules = try rules(rulesNode, known: config.recipes)
      config.lines.rules = try rulesNode.sequence().map(\.line)
    }
    if let defaultRecipesNode = structure["default-recipes"] {
      config.defaultRecipes = try recipeNames(defaultRecipesNode, known: config.recipes)
    }
    return config
  }

  /// `recipe` with the top-level values of the keys that set its kind's defaults.
  private func inheriting(_ defaults: Recipe, into recipe: Recipe) -> Recipe {
    var recipe = recipe
    for parameter in RecipeParameter.all where parameter.topLevelKinds.contains(recipe.kind) {
      parameter.inherit(defaults, &recipe)
    }
    return recipe
  }

  private func rules(_ node: ConfigNode, known: [String: Recipe]) throws(ConfigError) -> [Rule] {
    var rules: [Rule] = []
    for item in try node.sequence() {
      var match: String?
      var recipes: [String]?
      var focus: FocusPoint?
      for (key, value) in try item.mapping(allowed: ["match", "recipes", "focus"]) {
        if key == "focus" {
          focus = try ConfigValue.focus.read(value)
        } else if key == "match" {
          let pattern = try nonEmpty(value)
          do { _ = try Glob(pattern) } catch { throw value.error(error.message) }
          match = pattern
        } else {
          recipes = try recipeNames(value, known: known)
        }
      }
      guard let match else { throw item.error("a rule needs 'match'") }
      rules.append(Rule(match: match, recipes: recipes ?? ["variants"], focus: focus))
    }
    return rules
  }

  private func recipeNames(_ node: ConfigNode, known: [String: Recipe]) throws(ConfigError)
    -> [String]
  {
    let names = try node.strings()
    if names.isEmpty { throw node.error("list at least one recipe") }
    for name in names where known[name]?.kind.isNamedByRules != true {
      if known[name] != nil {
        throw node.error(
          "'\(name)' applies to set folders (.imageset, .colorset …) by their extension, not by a rule"
        )
      }
      let named = known.filter { $0.value.kind.isNamedByRules }.keys.sorted()
      throw node.error(
        "unknown recipe '\(name)'\(Suggestion.phrase(for: name, in: named)) (known: \(named.joined(separator: ", ")))"
      )
    }
    if Set(names).count != names.count { throw node.error("a recipe is listed twice") }
    return names
  }

  private func recipe(named name: String, _ node: ConfigNode, base: Recipe?, defaults: Recipe)
    throws(ConfigError) -> Recipe
  {
    let pairs = try node.mapping(allowed: RecipeParameter.keys)
    var recipe: Recipe
    if let kindNode = pairs.first(where: { $0.0 == "kind" })?.1 {
      let kind = try kindNode.choice(RecipeKind.self)
      guard kind.isNamedByRules else {
        throw kindNode.error(
          "'\(kind.rawValue)' is chosen by a set folder's extension (.imageset, .colorset …), not by a preset"
        )
      }
      if let base, base.kind == kind {
        recipe = base
      } else {
        recipe = inheriting(defaults, into: .builtin(kind, name: name))
      }
    } else if let base {
      recipe = base
    } else {
      throw node.error(
        "a new recipe needs 'kind' (one of: \(RecipeKind.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    recipe.name = name
    for (key, value) in pairs where key != "kind" {
      guard let parameter = RecipeParameter.byKey[key] else { continue }
      guard parameter.kinds.contains(recipe.kind) else {
        let kinds = RecipeKind.allCases.filter { parameter.kinds.contains($0) }.map(\.rawValue)
        throw value.error(
          "'\(key)' does not apply to \(recipe.kind.rawValue) recipes (only to: \(kinds.joined(separator: ", ")))"
        )
      }
      try parameter.read(value, &recipe)
    }
    try validate(recipe, node)
    return recipe
  }

  private func validate(_ recipe: Recipe, _ node: ConfigNode) throws(ConfigError) {
    guard recipe.kind != .variants, recipe.kind != .asIs else { return }
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

  private func nonEmpty(_ node: ConfigNode) throws(ConfigError) -> String {
    try ConfigValue<String>.nonEmpty(node)
  }
}
