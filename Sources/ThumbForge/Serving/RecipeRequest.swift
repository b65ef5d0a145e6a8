package import ThumbForgeConfig

/// The recipe a request asks for: one of the configuration's recipes (built-in or preset) by
/// name, or an ad-hoc box in points (`fill:600x400`), which `serve` accepts only when
/// `serve.ad-hoc` is on and both sides are within `serve.max-size`.
package enum RecipeRequest: Sendable, Hashable {
  case named(String)
  case adHoc(RecipeKind, width: Int, height: Int)

  /// The kinds an ad-hoc box may use.
  package static let adHocKinds: [RecipeKind] = [.fit, .fill]

  /// How the request is written in a URL: `tile`, `fill:600x400`.
  package var text: String {
    switch self {
    case .named(let name): name
    case .adHoc(let kind, let width, let height): "\(kind.rawValue):\(width)x\(height)"
    }
  }
}
