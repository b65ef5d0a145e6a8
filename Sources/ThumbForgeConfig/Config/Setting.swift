internal import Vips

/// One top-level key of `thumbforge.yml` that is not a recipe default: its name, type,
/// default and meaning, and how it is read into ``Config``.
///
/// ``all`` and ``RecipeParameter/all`` together are the whole key reference: the reader
/// accepts exactly their keys, and the README's tables are generated from them.
struct Setting: Sendable {
  /// The key in `thumbforge.yml`.
  let key: String
  /// The type and range in words.
  let typeSummary: String
  /// The default, as written in the file (or in words).
  let defaultText: String
  /// What the key means, one sentence.
  let summary: String
  /// Reads the value into a configuration; `nil` for the structure (`rules`, `recipes`,
  /// `default-recipes`) that ``ConfigReader`` reads once every default is known.
  let read: (@Sendable (ConfigNode, inout Config) throws(ConfigError) -> Void)?

  init<Value: Sendable>(
    _ key: String, _ field: WritableKeyPath<Config, Value>, _ type: ConfigValue<Value>,
    default defaultText: String? = nil, _ summary: String
  ) {
    // Key path literals are immutable values: safe to share between threads.
    nonisolated(unsafe) let field = field
    self.key = key
    self.typeSummary = type.summary
    self.defaultText = defaultText ?? type.text(Config()[keyPath: field])
    self.summary = summary
    read = { node, config throws(ConfigError) in config[keyPath: field] = try type.read(node) }
  }

  init(
    _ key: String, type: String, default defaultText: String, _ summary: String,
    read: (@Sendable (ConfigNode, inout Config) throws(ConfigError) -> Void)? = nil
  ) {
    self.key = key
    self.typeSummary = type
    self.defaultText = defaultText
    self.summary = summary
    self.read = read
  }

  static let byKey: [String: Setting] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}

extension Setting {
  /// The table of top-level keys, in the order the README lists them.
  static let all: [Setting] = [
    Setting(
      "output", type: ConfigValue<String>.text.summary, default: Config().output,
      "The catalog to write, relative to the asset folder; must be outside it."
    ) { node, config throws(ConfigError) in
      config.output = try ConfigValue<String>.text.read(node)
      config.outputLine = node.line
    },
    Setting(
      "manifest", \.manifest, .optionalText, default: "beside the catalog",
      "The manifest to write, relative to the asset folder."),
    Setting(
      "swift", \.swift, .optionalText, default: "none",
      "A Swift file of constants for every asset name, relative to the asset folder."),
    Setting(
      "swift-style", \.swiftAccessors.style, .choice(SwiftAccessorOptions.Style.self),
      "What each image set becomes in that file: a `String` constant of its name, or a SwiftGen-like `ImageAsset` (`name`, point `size`, `image`, `swiftUIImage`) (see *Generated Swift accessors*)."
    ),
    Setting(
      "swift-access", \.swiftAccessors.access, .choice(SwiftAccessorOptions.Access.self),
      "The access level of every declaration in that file."),
    Setting(
      "swift-enum", \.swiftAccessors.enumName, .text,
      "The name of that file's outermost enum."),
    Setting(
      "swift-bundle", \.swiftAccessors.bundle, .choice(SwiftAccessorOptions.BundleChoice.self),
      "The bundle `ImageAsset` loads from by default: `module` (a Swift package's), `main` (the app's), or `auto` (`Bundle.module` in a package, else the bundle of the generated code)."
    ),
    Setting(
      "master-scale", \.masterScale, .integer(1...3),
      "The scale of a raster master without an `@Nx` suffix."),
    Setting(
      "concurrency", \.concurrency, .integer(0...256), "Parallel jobs (0: one per core)."),
    Setting(
      "limit-input-pixels", type: ConfigValue<Int>.integer(1...Int.max).summary,
      default: String(Config().limitInputPixels),
      "Refuse larger masters before decoding them (sharp's default)."
    ) { node, config throws(ConfigError) in
      config.limitInputPixels = try ConfigValue<Int>.integer(1...Int.max).read(node)
      config.limitInputPixelsIsSet = true
    },
    Setting(
      "limit-render-pixels", \.limitRenderPixels, .integer(1...Int.max),
      "Refuse a render that would hold a larger image whole: an output, a smart crop's working image, a vector rasterisation (see *Limits and memory*)."
    ),
    Setting(
      "fail-on", \.failOn, .choice(FailOn.self),
      "How strictly damaged masters are refused (libvips' `fail-on`)."),
    Setting(
      "placeholders", \.placeholders, .choice(PlaceholderStyle.self),
      "A placeholder for every imageset, in `manifest.json`, the Swift accessors and `serve`: `thumbhash`, a ThumbHash of its largest sRGB file (see docs/placeholders.md)."
    ),
    Setting(
      "provides-namespace", \.providesNamespace, .bool,
      "Catalog groups add their name to asset names (`Flags/Italy`)."),
    Setting(
      "dark-suffix", \.darkSuffix, .text,
      "`Name~dark@2x.png` is the dark appearance of `Name`."),
    Setting(
      "naming", type: "`variants:`, `recipe:` templates with `{asset}` (and `{recipe}`)",
      default: "`{asset}`, `{asset}-{recipe}`",
      "Imageset names of variants (and app icon sets) and of other recipes."
    ) { node, config throws(ConfigError) in
      for (name, value) in try node.mapping(allowed: ["variants", "recipe"]) {
        let template = try ConfigValue<String>.text.read(value)
        guard template.contains("{asset}") else { throw value.error("must contain {asset}") }
        if name == "variants" {
          config.variantsName = template
        } else {
          config.recipeName = template
        }
      }
    },
    Setting(
      "default-recipes", type: "list of recipe names", default: "[variants]",
      "The recipes of files no rule matches."),
    Setting(
      "rules", type: "list of `{match: GLOB, recipes: [NAME…], focus: [X, Y]}`", default: "none",
      "The first rule whose glob (`*`, `**`, `?`, `{a,b}`) matches a master picks its recipes; its optional `focus` (fractions of the master, 0–1, from the top left) is where the crops of `fill`, `flag` and `tile` are centred, as far as the master allows (instead of `gravity`; recorded in the manifest)."
    ),
    Setting(
      "assets", type: "mapping of asset (`Group/Name`) to `{focus: [X, Y]}`", default: "none",
      "Per-asset overrides: an asset's `focus` places its crops as a rule's `focus` does, and wins over the focus of the rule that matches it."
    ) { node, config throws(ConfigError) in
      for (asset, value) in try node.mapping() {
        for (_, focus) in try value.mapping(allowed: ["focus"]) {
          config.assetFocus[asset] = try ConfigValue.focus.read(focus)
        }
        config.lines.assets[asset] = value.namingLine
      }
    },
    Setting(
      "recipes", type: "mapping of name to recipe keys", default: "the built-ins",
      "Presets (a new name needs `kind`) and changes to the built-in recipes."),
    Setting(
      "web", type: "mapping of `folder`, `widths`, `formats`", default: "none",
      "Width-based sizes of every imageset for a web page's `srcset`, with a JSON per imageset listing them (see docs/web.md)."
    ) { node, config throws(ConfigError) in
      for (key, value) in try node.mapping(allowed: Set(web.map(\.key))) {
        try webByKey[key]!.read!(value, &config)
        if key == "folder" { config.web.folderLine = value.line }
      }
    },
    Setting(
      "android", type: "mapping of `folder`, `densities`, `format`", default: "none",
      "Every imageset as an Android drawable at each density, dark art under `-night`, with names made valid (see docs/android.md)."
    ) { node, config throws(ConfigError) in
      for (key, value) in try node.mapping(allowed: Set(android.map(\.key))) {
        try androidByKey[key]!.read!(value, &config)
        if key == "folder" { config.android.folderLine = value.line }
      }
    },
    Setting(
      "serve", type: "mapping of the keys below", default: "see below",
      "How `thumbforge serve` answers requests (see *Serving on demand*)."
    ) { node, config throws(ConfigError) in
      for (key, value) in try node.mapping(allowed: Set(serve.map(\.key))) {
        try serveByKey[key]!.read!(value, &config)
      }
    },
  ]

  /// The keys of the `web:` section.
  static let web: [Setting] = [
    Setting(
      "folder", \.web.folder, .optionalText, default: "none (no web sizes)",
      "The folder the web sizes are written into, relative to the asset folder; outside it and outside the catalog."
    ),
    Setting(
      "widths", \.web.widths, .widths,
      "The widths offered, in pixels; a width above the image's own is left out (never enlarged), and an image narrower than all of them gets its own width."
    ),
    Setting(
      "formats", \.web.formats, .choices(WebFormat.self),
      "The formats of every width, in this order in the JSON's `sources`; `auto` is the catalog file's own (JPEG or PNG)."
    ),
  ]

  static let webByKey: [String: Setting] = Dictionary(
    uniqueKeysWithValues: web.map { ($0.key, $0) })

  /// The keys of the `android:` section.
  static let android: [Setting] = [
    Setting(
      "folder", \.android.folder, .optionalText, default: "none (no Android resources)",
      "The `res` folder the drawables are written into, relative to the asset folder; outside it and outside the catalog."
    ),
    Setting(
      "densities", \.android.densities, .choices(AndroidDensity.self),
      "The densities written (1, 1.5, 2, 3 and 4 pixels a dp); one past a raster master's catalog file's scale is left out (never enlarged); a vector master gets each."
    ),
    Setting(
      "format", \.android.format, .choice(AndroidFormat.self),
      "The drawables' format; `auto` is the catalog file's own (PNG, JPEG or WebP; PNG for HEIF and AVIF)."
    ),
  ]

  static let androidByKey: [String: Setting] = Dictionary(
    uniqueKeysWithValues: android.map { ($0.key, $0) })

  /// The keys of the `serve:` section.
  static let serve: [Setting] = [
    Setting(
      "ad-hoc", \.serve.adHoc, .bool,
      "Whether URLs may ask for `fit:WxH` or `fill:WxH` boxes that no recipe defines."),
    Setting(
      "max-size", \.serve.maxSize, .integer(1...16384),
      "The largest side of an ad-hoc box, in points."),
    Setting(
      "cache", \.serve.cache, .text,
      "The result cache folder, relative to the asset folder; must be outside it."),
    Setting(
      "cache-size", \.serve.cacheSize, .integer(1...1_048_576),
      "The result cache's cap in MB; least recently used results are evicted first."),
    Setting(
      "decoded-cache", \.serve.decodedCache, .integer(0...1_048_576),
      "MB of masters kept decoded in memory (as a render decodes them, shrunk on load) for `serve`'s next renders of them (0: none)."
    ),
    Setting(
      "cache-control", \.serve.cacheControl, .text,
      "The `Cache-Control` header of every image response."),
    Setting(
      "queue", \.serve.queue, .integer(0...100_000),
      "Renders that may wait beyond the running ones; further requests get 429."),
    Setting(
      "timeout", \.serve.timeout, .integer(1...3600),
      "Seconds a request waits for its render before it gets 503."),
    Setting(
      "preview", type: ConfigValue<Bool>.bool.summary, default: "on for loopback only",
      "The preview page at `/`: every asset with each file of its recipes (every scale, dark, Display P3)."
    ) { node, config throws(ConfigError) in
      config.serve.preview = try ConfigValue<Bool>.bool.read(node)
    },
    Setting(
      "max-output-pixels", \.serve.maxOutputPixels, .integer(1...Int(Int32.max)),
      "The most pixels of an output `serve` renders; a request whose render would make a larger one gets 413."
    ),
    Setting(
      "memory-budget", \.serve.memoryBudget, .integer(0...16_777_216),
      "MB of estimated render memory admitted at once (the *Limits and memory* model); more renders wait, a render larger than the whole budget gets 413. 0: half the memory limit (the cgroup's, else the machine's) less `decoded-cache`."
    ),
    Setting(
      "read-timeout", \.serve.readTimeout, .integer(1...3600),
      "Seconds a connection may take to send a request's headers, or stay idle between requests, before it is closed."
    ),
    Setting(
      "write-timeout", \.serve.writeTimeout, .integer(1...3600),
      "Seconds a client may take to accept each 64 KB of a response before its connection is closed."
    ),
    Setting(
      "max-connections", \.serve.maxConnections, .integer(1...1_000_000),
      "Connections open at once (never more than the file-descriptor limit leaves room for); at the cap a new one replaces the connection idle longest, or is closed when all are busy."
    ),
    Setting(
      "untrusted-sources", \.serve.untrustedSources, .bool,
      "For folders users upload into: block libvips' untrusted loaders (SVG, PDF, ImageMagick…) and lower the default `limit-input-pixels` to \(ServeSettings.untrustedPixelLimit)."
    ),
  ]

  static let serveByKey: [String: Setting] = Dictionary(
    uniqueKeysWithValues: serve.map { ($0.key, $0) })
}
