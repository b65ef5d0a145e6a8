/// One recipe of a generated configuration: its keys as YAML, drawn from the recipe key
/// table (README "Recipe keys") with boundary values, always one the tool accepts.
package struct GeneratedRecipe: Sendable {
  /// The name rules use (a built-in's name when it overrides one).
  package var name: String
  /// `variants`, `fit`, `fill`, `flag` or `tile`.
  package var kind: String
  /// Whether it overrides the built-in of its name (then it has no `kind` key).
  package var overridesBuiltin: Bool
  /// Key and YAML value, in order.
  package var keys: [(String, String)]

  /// Whether `keep-metadata: true` is set.
  package var keepsMetadata: Bool { keys.contains { $0.0 == "keep-metadata" && $0.1 == "true" } }

  /// `name: { kind: fit, size: [40, 25], … }`.
  var yaml: String {
    var pairs = overridesBuiltin ? [] : ["kind: \(kind)"]
    pairs += keys.map { "\($0.0): \($0.1)" }
    return "\(name): { \(pairs.joined(separator: ", ")) }"
  }

  static let boxedKinds = ["fit", "fill", "flag", "tile"]
  static let gravities = [
    "center", "north", "south", "east", "west", "northeast", "northwest", "southeast",
    "southwest", "attention", "entropy",
  ]
  static let colours = ["white", "black", "clear", "\"#336699\"", "\"#33669980\"", "\"#FF000000\""]
  static let kernels = ["nearest", "linear", "cubic", "mitchell", "lanczos2", "lanczos3"]
  /// Point sizes of box sides: 1 pt, fractions, the defaults, long and thin.
  static let sides: [Double] = [1, 2, 3, 5, 12.5, 17, 25, 40, 64, 100, 160, 300]

  /// A recipe of `kind` named `name` with a random selection of its keys.
  static func make(
    name: String, kind: String, overridesBuiltin: Bool, random r: inout PropertyRandom,
    formats: [String]
  ) -> GeneratedRecipe {
    var draw = KeyDraw()
    let size = draw.size(kind: kind, &r)
    draw.maybe("scales", &r) {
      "[" + $0.subset([1, 2, 3]).map(String.init).joined(separator: ", ") + "]"
    }
    if ["fill", "flag", "tile"].contains(kind) {
      draw.maybe("gravity", p: 0.5, &r) { $0.pick(gravities) }
    }
    if kind == "fit" { draw.maybe("pad", p: 0.5, &r) { $0.chance(0.5) ? "true" : "false" } }
    draw.maybe("background", &r) { $0.pick(colours) }
    if boxedKinds.contains(kind) { draw.shape(kind: kind, size: size, &r) }
    draw.maybe("kernel", &r) { $0.pick(kernels) }
    if kind == "variants" {
      draw.maybe("keep-vector", p: 0.3, &r) { $0.chance(0.5) ? "true" : "false" }
    }
    draw.encoding(kind: kind, formats: formats, &r)
    draw.catalog(&r)
    return GeneratedRecipe(
      name: name, kind: kind, overridesBuiltin: overridesBuiltin, keys: draw.keys)
  }
}

/// The keys of a recipe being drawn, in the order they are drawn (which a seed fixes).
private struct KeyDraw {
  var keys: [(String, String)] = []

  /// Adds `key` with a value drawn by `value`, with probability `p`.
  mutating func maybe(
    _ key: String, p: Double = 0.35, _ r: inout PropertyRandom,
    _ value: (inout PropertyRandom) -> String
  ) {
    if r.chance(p) { keys.append((key, value(&r))) }
  }

  /// The box of a boxed kind (`fit`, `fill`, `flag`, `tile`), usually set: square, small, or
  /// now and then long and thin; the kind's default when not set.
  mutating func size(kind: String, _ r: inout PropertyRandom) -> (Double, Double) {
    var size: (Double, Double) =
      switch kind {
      case "fit": (400, 400)
      case "fill": (400, 200)
      case "flag": (40, 25)
      default: (300, 300)
      }
    guard GeneratedRecipe.boxedKinds.contains(kind) && r.chance(0.8) else { return size }
    if r.chance(0.2) {
      let side = r.pick(GeneratedRecipe.sides)
      size = (side, side)
      keys.append(("size", MasterFileFormats.format3(side)))
    } else {
      // Mostly small boxes (cheap renders); now and then a long, thin one.
      size =
        r.chance(0.05)
        ? (r.chance(0.5) ? (1, 1500) : (1500, 1))
        : (r.pick(GeneratedRecipe.sides), r.pick(GeneratedRecipe.sides))
      keys.append(
        ("size", "[\(MasterFileFormats.format3(size.0)), \(MasterFileFormats.format3(size.1))]"))
    }
    return size
  }

  /// The mask and border keys of a boxed kind, and `upscale`: a radius and a stroke the tool
  /// accepts for `size` (it refuses a radius over half the short side and a stroke that
  /// leaves no room).
  mutating func shape(kind: String, size: (Double, Double), _ r: inout PropertyRandom) {
    let short = min(size.0, size.1)
    let radius = kind == "flag" ? 5.0 : 0
    if r.chance(0.5) || radius > short / 2 {
      let choices = [
        0, short / 2, (short / 2 * Double(r.int(1...99)) / 100 * 100).rounded() / 100,
      ]
      keys.append(("radius", MasterFileFormats.format3(min(r.pick(choices), short / 2))))
    }
    maybe("corner-style", &r) { $0.pick(["circular", "continuous"]) }
    let stroke = kind == "flag" ? 1.0 : 0
    if r.chance(0.5) || (stroke > 0 && stroke * 2 >= short) {
      let large = ((short / 2) * 0.9 * 100).rounded(.down) / 100
      var choices: [Double] = [0]
      if 2 < short { choices.append(1) }
      if large > 0 && large * 2 < short { choices.append(large) }
      keys.append(("stroke-width", MasterFileFormats.format3(r.pick(choices))))
    }
    maybe("stroke-color", &r) { $0.pick(GeneratedRecipe.colours) }
    maybe("stroke-alignment", p: 0.5, &r) { $0.pick(["inside", "center"]) }
    maybe("upscale", p: 0.5, &r) { $0.pick(["warn", "never", "allow", "keep"]) }
  }

  /// The encoding keys: `format` (never JPEG for a flag, which needs alpha), `quality`,
  /// `optimize-coding`, `keep-metadata`.
  mutating func encoding(kind: String, formats: [String], _ r: inout PropertyRandom) {
    maybe("format", p: 0.4, &r) { random in
      kind == "flag" ? random.pick(formats.filter { $0 != "jpeg" }) : random.pick(formats)
    }
    maybe("quality", p: 0.3, &r) { $0.pick(["1", "100", String($0.int(1...100))]) }
    maybe("optimize-coding", p: 0.2, &r) { $0.chance(0.5) ? "true" : "false" }
    maybe("keep-metadata", p: 0.4, &r) { $0.chance(0.5) ? "true" : "false" }
  }

  /// The keys that change only `Contents.json`, and `display-gamut`.
  mutating func catalog(_ r: inout PropertyRandom) {
    maybe("template-rendering-intent", p: 0.15, &r) { $0.pick(["original", "template"]) }
    maybe("compression-type", p: 0.15, &r) {
      $0.pick(["lossless", "lossy", "gpu-optimized-best"])
    }
    maybe("preserves-vector-representation", p: 0.15, &r) { $0.chance(0.5) ? "true" : "false" }
    maybe("display-gamut", p: 0.3, &r) { $0.pick(["[sRGB]", "[sRGB, display-P3]"]) }
  }
}
