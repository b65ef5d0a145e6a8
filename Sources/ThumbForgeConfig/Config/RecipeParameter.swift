/// What a change of a recipe parameter can alter in the catalog.
enum RecipeEffect: String, Sendable, CaseIterable {
  /// The image files' pixels (and so their bytes), or which files exist.
  case pixels
  /// The image files' bytes but not their pixels (quality, Huffman tables, metadata).
  case encoding
  /// Only the imageset's `Contents.json`.
  case contents
}

/// One key of a recipe in `thumbforge.yml`: its name, type and range, its default for each
/// kind, the kinds that accept it, what it changes, and the ``Recipe`` field it sets.
///
/// ``all`` is the only definition of recipe keys: ``ConfigReader`` accepts, reads, validates
/// and defaults keys from it, ``Recipe/builtin(_:name:)`` takes its defaults from it, and the
/// README's key table is generated from it (see ``referenceTable()``). Adding a parameter is
/// one row here plus its use in planning or rendering. A recipe's cache key is derived from
/// the whole resolved recipe (see ``Planner``), so no row lists what it affects by hand.
struct RecipeParameter: Sendable {
  /// The key in `thumbforge.yml`.
  let key: String
  /// The kinds whose recipes accept the key; in others it is an error.
  let kinds: Set<RecipeKind>
  /// The kinds for which the same key at the top level of the file sets the default.
  let topLevelKinds: Set<RecipeKind>
  /// What a change of the value can alter.
  let effect: RecipeEffect
  /// What the key means, one sentence.
  let summary: String
  /// The type and range in words.
  let typeSummary: String
  /// The ``Recipe`` field the key sets, as written in Swift (`\Recipe.cornerRadius`).
  /// Spelt on demand: describing a key path reflects on it, costly for every parameter at
  /// once, which every build would otherwise pay at start-up on one core.
  var fieldName: String { describeField() }
  private let describeField: @Sendable () -> String

  /// The default for `kind`, as written in the file.
  let defaultText: @Sendable (RecipeKind) -> String
  /// The value a recipe has, as written in the file.
  let valueText: @Sendable (Recipe) -> String
  /// Sets the field to `recipe.kind`'s default.
  let setDefault: @Sendable (inout Recipe) -> Void
  /// Reads the key's value into a recipe.
  let read: @Sendable (ConfigNode, inout Recipe) throws(ConfigError) -> Void
  /// Copies the field from `defaults` (the top-level values) into a recipe.
  let inherit: @Sendable (Recipe, inout Recipe) -> Void

  init<Value: Sendable>(
    _ key: String, _ field: WritableKeyPath<Recipe, Value>, _ type: ConfigValue<Value>,
    kinds: Set<RecipeKind> = every, topLevel: Set<RecipeKind> = [],
    effect: RecipeEffect, _ summary: String,
    default value: @escaping @Sendable (RecipeKind) -> Value
  ) {
    // Key path literals are immutable values: safe to share between threads.
    nonisolated(unsafe) let field = field
    self.key = key
    self.kinds = kinds
    self.topLevelKinds = topLevel
    self.effect = effect
    self.summary = summary
    self.typeSummary = type.summary
    describeField = { String(describing: field) }
    defaultText = { kind in type.text(value(kind)) }
    valueText = { recipe in type.text(recipe[keyPath: field]) }
    setDefault = { recipe in recipe[keyPath: field] = value(recipe.kind) }
    read = { node, recipe throws(ConfigError) in recipe[keyPath: field] = try type.read(node) }
    inherit = { defaults, recipe in recipe[keyPath: field] = defaults[keyPath: field] }
  }

  /// Every parameter by key.
  static let byKey: [String: RecipeParameter] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.key, $0) })

  /// The keys a recipe mapping accepts: `kind` and every parameter.
  static let keys: Set<String> = Set(all.map(\.key) + ["kind"])

  /// The keys that also stand at the top level of the file, as every recipe's default.
  static let topLevelKeys: Set<String> = Set(all.filter { !$0.topLevelKinds.isEmpty }.map(\.key))
}

extension RecipeParameter {
  /// The kinds that size outputs to a box.
  static let boxed: Set<RecipeKind> = [.fit, .fill, .flag, .tile]
  /// The kinds that crop to their box.
  static let cropping: Set<RecipeKind> = [.fill, .flag, .tile]
  /// Every kind a rule can name (all but `as-is`, whose only key is `keep-metadata`).
  static let every = Set(RecipeKind.allCases.filter(\.isNamedByRules))
  /// The kinds that write an `.imageset` of their own making (all but `appicon`).
  static let imageSets = every.filter(\.makesImageSet)
}

extension Recipe {
  /// Every key of the recipe with its value as written in the file (`kind` included): what
  /// the manifest records, so that `check` can name the key that changed.
  package var settings: [String: String] {
    var settings = ["kind": kind.rawValue]
    for parameter in RecipeParameter.all where parameter.kinds.contains(kind) {
      settings[parameter.key] = parameter.valueText(self)
    }
    return settings
  }

  /// The keys whose values differ from `before`'s (`kind` first), as `key old → new`.
  package static func changes(from before: [String: String], to after: [String: String]) -> [String]
  {
    let keys = Set(before.keys).union(after.keys).sorted { a, b in
      a == "kind" ? b != "kind" : b == "kind" ? false : a < b
    }
    return keys.compactMap { key in
      before[key] == after[key]
        ? nil : "\(key) \(before[key] ?? "unset") → \(after[key] ?? "unset")"
    }
  }
}
