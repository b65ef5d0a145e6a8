internal import Foundation
package import ThumbForgeBasics
package import Vips

/// The whole build configuration (`thumbforge.yml`), every key with its default.
package struct Config: Sendable, Equatable {
  /// Catalog path, relative to the asset folder.
  package var output: String = "../Build/Assets.xcassets"
  /// The line of `output` in the configuration file, for error messages.
  package var outputLine: Int?
  /// Manifest path, relative to the asset folder (default: beside the catalog).
  package var manifest: String?
  /// Generated Swift accessors file, relative to the asset folder (none by default).
  package var swift: String?
  /// How the accessors file is written: style, access level, enum name, bundle.
  package var swiftAccessors = SwiftAccessorOptions()
  /// Scale of an unsuffixed raster master.
  package var masterScale: Int = 3
  /// Ordered rules; the first whose glob matches a master picks its recipes.
  package var rules: [Rule] = []
  /// Recipes by name: the built-ins plus presets from the file.
  package var recipes: [String: Recipe] = Config.builtinRecipes()
  /// Per-asset focal points (`assets: { Group/Name: { focus: [x, y] } }`), by qualified
  /// asset name; each overrides the focus of the rule that matches the asset.
  package var assetFocus: [String: FocusPoint] = [:]
  /// Recipes for files no rule matches.
  package var defaultRecipes: [String] = ["variants"]
  /// Parallel jobs (0 picks a value for the machine).
  package var concurrency: Int = 0
  /// Largest input accepted, in pixels (sharp's default: 0x3FFF²).
  package var limitInputPixels: Int = 268_402_689
  /// Largest image a render holds whole after decoding, in pixels: an output, a smart
  /// crop's working image, a vector rasterisation (see ``RenderCost``).
  package var limitRenderPixels: Int = 268_402_689
  /// How strictly damaged masters are rejected.
  package var failOn: FailOn = .warning
  /// The placeholder each imageset gets in the manifest and the accessors.
  package var placeholders: PlaceholderStyle = .none
  /// Whether catalog groups add their name to asset names.
  package var providesNamespace: Bool = false
  /// Imageset name template for `variants`.
  package var variantsName: String = "{asset}"
  /// Imageset name template for every other recipe.
  package var recipeName: String = "{asset}-{recipe}"
  /// File-name suffix marking a dark-appearance master (`Name~dark@2x.png`).
  package var darkSuffix: String = "~dark"
  /// `thumbforge serve`'s settings.
  package var serve = ServeSettings()
  /// The web sizes a build writes beside the catalog (`web:`).
  package var web = WebSettings()
  /// The Android resources a build writes beside the catalog (`android:`).
  package var android = AndroidSettings()
  /// Whether `limit-input-pixels` was set in the file (an untrusted `serve` folder lowers
  /// only the default).
  package var limitInputPixelsIsSet = false
  /// Where the file wrote its rules, recipes and asset entries (for `lint`'s messages).
  package var lines = ConfigLines()

  package init() {}

  /// The built-in recipes with their default parameters.
  package static func builtinRecipes() -> [String: Recipe] {
    var recipes: [String: Recipe] = [:]
    for kind in RecipeKind.allCases { recipes[kind.rawValue] = .builtin(kind) }
    return recipes
  }

  /// The name of the imageset that holds `recipe`'s outputs for `asset`.
  /// App icon sets are named as `variants` imagesets are (`AppIcon`): the app's build
  /// settings name its icon set.
  package func imageSetName(asset: String, recipe: String) -> String {
    let template =
      recipe == "variants" || recipes[recipe]?.kind == .appicon ? variantsName : recipeName
    // Fast paths for the common cases, equal to the general replacement: the bare `{asset}`
    // template is the asset name, and text without a `{` has no placeholder left to replace.
    let named = template == "{asset}" ? asset : template.replacing("{asset}", with: asset)
    guard named.utf8.contains(UInt8(ascii: "{")) else { return named }
    return named.replacing("{recipe}", with: recipe)
  }
}

extension Config {
  /// The folders of the destinations beside the catalog that are on (`web.folder`,
  /// `android.folder`), with their keys and lines.
  package var destinationFolders: [(key: String, path: String, line: Int?)] {
    [
      web.folder.map { ("web.folder", $0, web.folderLine) },
      android.folder.map { ("android.folder", $0, android.folderLine) },
    ].compactMap { $0 }
  }
}
