/// The text of the `thumbforge.yml` files `thumbforge init` writes.
enum StarterConfig {
  /// A commented starter configuration: every line but `output` is a comment showing a key
  /// with its default or an example, so the file loads to the defaults.
  static let commented = """
    # thumbforge.yml: ThumbForge's configuration for this asset folder.
    # Every key has a default; uncomment what you need (README, "Configuration").

    # The catalog to write, relative to this folder (it must be outside it).
    output: ../Build/Assets.xcassets

    # The display scales to write (1x on request).
    # scales: [2, 3]

    # The scale of a raster master without an @Nx suffix (Name.png).
    # master-scale: 3

    # Groups (sub-folders) add their name to asset names: Flags/Italy.
    # provides-namespace: false

    # The first rule whose glob matches a master picks its recipes; other files get variants.
    # rules:
    #   - match: "Flags/**"
    #     recipes: [variants, flag]
    #   - match: "Photos/*.jpg"
    #     recipes: [variants, fill]

    # Presets of your own, or changes to the built-ins (variants, fit, fill, flag, tile).
    # recipes:
    #   hero: { kind: fit, size: [1024, 1366], scales: [2] }

    """

  /// The configuration of a folder made from an existing catalog: the scales most imagesets
  /// have at the top, a `variants` preset and a rule per imageset with other scales, and
  /// `provides-namespace` when the catalog's groups provide one.
  static func fromCatalog(
    name: String, imageSets: Int, scales: [Int], presets: [(name: String, scales: [Int])],
    rules: [(match: String, recipe: String)], providesNamespace: Bool
  ) -> String {
    var text = """
      # thumbforge.yml, made by `thumbforge init --from \(name)` from its \(imageSets) imagesets.
      # Each master is the largest-scale image of its imageset (Name@3x.png, Name~dark@3x.png);
      # ThumbForge makes the smaller scales from it. README, "Configuration", lists every key.

      # The catalog to write, relative to this folder (it must be outside it).
      output: ../Build/Assets.xcassets

      scales: \(list(scales))

      """
    if providesNamespace {
      text += "# \(name) has groups that provide a namespace (Group/Name).\n"
      text += "provides-namespace: true\n\n"
    }
    if !presets.isEmpty {
      text += "# Imagesets of \(name) with other scales: presets named like the imageset.\n"
      text += "naming: { recipe: \"{asset}\" }\nrecipes:\n"
      for preset in presets {
        text += "  \(preset.name): { kind: variants, scales: \(list(preset.scales)) }\n"
      }
      text += "rules:\n"
      for rule in rules {
        text += "  - match: \"\(rule.match)\"\n    recipes: [\(rule.recipe)]\n"
      }
    }
    return text
  }

  private static func list(_ scales: [Int]) -> String {
    "[" + scales.map(String.init).joined(separator: ", ") + "]"
  }
}
