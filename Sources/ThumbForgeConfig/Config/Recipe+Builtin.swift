extension Recipe {
  /// The defaults of a built-in kind, which reproduce the reference apps: every field
  /// takes its kind's default from ``RecipeParameter/all`` (the configuration's key table,
  /// which is why this sits with the configuration, not with the recipe value).
  package static func builtin(_ kind: RecipeKind, name: String? = nil) -> Recipe {
    var recipe = Recipe(unset: name ?? kind.rawValue, kind: kind)
    for parameter in RecipeParameter.all { parameter.setDefault(&recipe) }
    return recipe
  }
}
