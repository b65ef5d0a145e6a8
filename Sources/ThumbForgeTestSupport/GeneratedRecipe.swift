/// One recipe of a generated configuration: its keys as YAML, drawn from the recipe key
/// table (README "Recipe keys") with boundary values, always one the tool accepts.
public struct GeneratedRecipe: Sendable {
  /// The name rules use (a built-in's name when it overrides one).
  public var name: String
  /// `variants`, `fit`, `fill`, `flag` or `tile`.
  public var kind: String
  /// Whether it overrides the built-in of its name (then it has no `kind` key).
  public var overridesBuiltin: Bool
  /// Key and YAML value, in order.
  public var keys: [(String, String)]

  /// Whether `keep-metadata: true` is set.
  public var keepsMetadata: Bool { keys.contains { $0.0 == "keep-metadata" && $0.1 == "true" } }

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
    var keys: [(String, String)] = []
    func maybe(_ key: String, p: Double = 0.35, _ value: () -> String) {
      if r.chance(p) { keys.append((key, value())) }
    }
    let boxed = boxedKinds.contains(kind)
    var size: (Double, Double) =
      switch kind {
      case "fit": (400, 400)
      case "fill": (400, 200)
      case "flag": (40, 25)
      default: (300, 300)
      }
    if boxed && r.chance(0.8) {
      if r.chance(0.2) {
        let side = r.pick(sides)
        size = (side, side)
        keys.append(("size", MasterFileFormats.format3(side)))
      } else {
        // Mostly small boxes (cheap renders); now and then a long, thin one.
        size =
          r.chance(0.05)
          ? (r.chance(0.5) ? (1, 1500) : (1500, 1)) : (r.pick(sides), r.pick(sides))
        keys.append(
          ("size", "[\(MasterFileFormats.format3(size.0)), \(MasterFileFormats.format3(size.1))]"))
      }
    }
    maybe("scales") { "[" + r.subset([1, 2, 3]).map(String.init).joined(separator: ", ") + "]" }
    if ["fill", "flag", "tile"].contains(kind) { maybe("gravity", p: 0.5) { r.pick(gravities) } }
    if kind == "fit" { maybe("pad", p: 0.5) { r.chance(0.5) ? "true" : "false" } }
    maybe("background") { r.pick(colours) }
    if boxed {
      let short = min(size.0, size.1)
      // The tool refuses a radius over half the short side and a stroke that leaves no room.
      var radius = kind == "flag" ? 5.0 : 0
      if r.chance(0.5) || radius > short / 2 {
        let choices = [
          0, short / 2, (short / 2 * Double(r.int(1...99)) / 100 * 100).rounded() / 100,
        ]
        radius = min(r.pick(choices), short / 2)
        keys.append(("radius", MasterFileFormats.format3(radius)))
      }
      maybe("corner-style") { r.pick(["circular", "continuous"]) }
      var stroke = kind == "flag" ? 1.0 : 0
      if r.chance(0.5) || (stroke > 0 && stroke * 2 >= short) {
        let large = ((short / 2) * 0.9 * 100).rounded(.down) / 100
        var choices: [Double] = [0]
        if 2 < short { choices.append(1) }
        if large > 0 && large * 2 < short { choices.append(large) }
        stroke = r.pick(choices)
        keys.append(("stroke-width", MasterFileFormats.format3(stroke)))
      }
      maybe("stroke-color") { r.pick(colours) }
      maybe("stroke-alignment", p: 0.5) { r.pick(["inside", "center"]) }
      maybe("upscale", p: 0.5) { r.pick(["warn", "never", "allow", "keep"]) }
    }
    maybe("kernel") { r.pick(kernels) }
    if kind == "variants" { maybe("keep-vector", p: 0.3) { r.chance(0.5) ? "true" : "false" } }
    maybe("format", p: 0.4) {
      kind == "flag" ? r.pick(formats.filter { $0 != "jpeg" }) : r.pick(formats)
    }
    maybe("quality", p: 0.3) { r.pick(["1", "100", String(r.int(1...100))]) }
    maybe("optimize-coding", p: 0.2) { r.chance(0.5) ? "true" : "false" }
    maybe("keep-metadata", p: 0.4) { r.chance(0.5) ? "true" : "false" }
    maybe("template-rendering-intent", p: 0.15) { r.pick(["original", "template"]) }
    maybe("compression-type", p: 0.15) { r.pick(["lossless", "lossy", "gpu-optimized-best"]) }
    maybe("preserves-vector-representation", p: 0.15) { r.chance(0.5) ? "true" : "false" }
    maybe("display-gamut", p: 0.3) { r.pick(["[sRGB]", "[sRGB, display-P3]"]) }
    return GeneratedRecipe(name: name, kind: kind, overridesBuiltin: overridesBuiltin, keys: keys)
  }
}
