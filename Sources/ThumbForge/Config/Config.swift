internal import Foundation
public import Vips

/// The whole build configuration (`thumbforge.yml`), every key with its default.
public struct Config: Sendable, Equatable {
  /// Catalog path, relative to the asset folder.
  public var output: String = "../Build/Assets.xcassets"
  /// The line of `output` in the configuration file, for error messages.
  public var outputLine: Int?
  /// Manifest path, relative to the asset folder (default: beside the catalog).
  public var manifest: String?
  /// Generated Swift accessors file, relative to the asset folder (none by default).
  public var swift: String?
  /// How the accessors file is written: style, access level, enum name, bundle.
  public var swiftAccessors = SwiftAccessorOptions()
  /// Scale of an unsuffixed raster master.
  public var masterScale: Int = 3
  /// Ordered rules; the first whose glob matches a master picks its recipes.
  public var rules: [Rule] = []
  /// Recipes by name: the built-ins plus presets from the file.
  public var recipes: [String: Recipe] = Config.builtinRecipes()
  /// Per-asset focal points (`assets: { Group/Name: { focus: [x, y] } }`), by qualified
  /// asset name; each overrides the focus of the rule that matches the asset.
  public var assetFocus: [String: FocusPoint] = [:]
  /// Recipes for files no rule matches.
  public var defaultRecipes: [String] = ["variants"]
  /// Parallel jobs (0 picks a value for the machine).
  public var concurrency: Int = 0
  /// Largest input accepted, in pixels (sharp's default: 0x3FFF²).
  public var limitInputPixels: Int = 268_402_689
  /// Largest image a render holds whole after decoding, in pixels: an output, a smart
  /// crop's working image, a vector rasterisation (see ``RenderCost``).
  public var limitRenderPixels: Int = 268_402_689
  /// How strictly damaged masters are rejected.
  public var failOn: FailOn = .warning
  /// Whether catalog groups add their name to asset names.
  public var providesNamespace: Bool = false
  /// Imageset name template for `variants`.
  public var variantsName: String = "{asset}"
  /// Imageset name template for every other recipe.
  public var recipeName: String = "{asset}-{recipe}"
  /// File-name suffix marking a dark-appearance master (`Name~dark@2x.png`).
  public var darkSuffix: String = "~dark"
  /// `thumbforge serve`'s settings.
  public var serve = ServeSettings()
  /// Whether `limit-input-pixels` was set in the file (an untrusted `serve` folder lowers
  /// only the default).
  public var limitInputPixelsIsSet = false
  /// Where the file wrote its rules, recipes and asset entries (for `lint`'s messages).
  var lines = ConfigLines()

  public init() {}

  /// The built-in recipes with their default parameters.
  public static func builtinRecipes() -> [String: Recipe] {
    var recipes: [String: Recipe] = [:]
    for kind in RecipeKind.allCases { recipes[kind.rawValue] = .builtin(kind) }
    return recipes
  }

  /// The name of the imageset that holds `recipe`'s outputs for `asset`.
  /// App icon sets are named as `variants` imagesets are (`AppIcon`): the app's build
  /// settings name its icon set.
  public func imageSetName(asset: String, recipe: String) -> String {
    let template =
      recipe == "variants" || recipes[recipe]?.kind == .appicon ? variantsName : recipeName
    // Fast paths for the common cases, equal to the general replacement: the bare `{asset}`
    // template is the asset name, and text without a `{` has no placeholder left to replace.
    let named = template == "{asset}" ? asset : template.replacing("{asset}", with: asset)
    guard named.utf8.contains(UInt8(ascii: "{")) else { return named }
    return named.replacing("{recipe}", with: recipe)
  }
}
