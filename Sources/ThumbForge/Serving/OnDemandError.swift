/// Why an on-demand request cannot be answered with an image. Each case names the HTTP
/// status `serve` answers with; messages never contain file-system paths.
package enum OnDemandError: Error, Sendable, Equatable {
  /// 404: no asset of that qualified name.
  case unknownAsset(String)
  /// 400: no recipe of that name in the configuration.
  case unknownRecipe(String)
  /// 400: an ad-hoc box while `serve.ad-hoc` is off, or larger than `serve.max-size`.
  case adHocRefused(String)
  /// 400: a format this libvips cannot write.
  case unsupportedFormat(String)
  /// 404: the recipe makes no such output for this asset (e.g. a variant that would enlarge).
  case noSuchOutput(String)
  /// 413: the master, an output or the render is over a limit (`limit-input-pixels`,
  /// `serve.max-output-pixels`, `serve.memory-budget` …).
  case tooLarge(String)
  /// 422: the master cannot be decoded, or rendering it failed.
  case undecodable(String)
  /// 503: a master changed since the folder was scanned; the next reload plans it.
  case changed(String)

  /// The HTTP status of the answer.
  package var status: Int {
    switch self {
    case .unknownAsset, .noSuchOutput: 404
    case .unknownRecipe, .adHocRefused, .unsupportedFormat: 400
    case .tooLarge: 413
    case .undecodable: 422
    case .changed: 503
    }
  }

  /// One line for the response body (no paths, no libvips messages: those go to the log).
  package var message: String {
    switch self {
    case .unknownAsset(let name): "no asset named '\(name)'"
    case .unknownRecipe(let name): "no recipe named '\(name)'"
    case .adHocRefused(let why): why
    case .unsupportedFormat(let format):
      format == "avif"
        ? "this server cannot write avif: AVIF encoding is unavailable here"
        : "this server cannot write \(format)"
    case .noSuchOutput(let why): why
    case .tooLarge: "the image is larger than this server renders"
    case .undecodable: "the master image cannot be decoded"
    case .changed: "the asset is being updated; retry shortly"
    }
  }

  /// The detail for the server's log (may name the master file and the library's reason).
  package var logDetail: String {
    switch self {
    case .tooLarge(let detail), .undecodable(let detail), .changed(let detail): detail
    default: message
    }
  }
}
