import ArgumentParser
import Foundation
import ThumbForgeServer

/// `thumbforge sign PATH`: the signed form of a `serve` path.
struct SignCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sign",
    abstract: "Print the signed form of a serve path, e.g. 'tile/Resorts/les-arcs@2x.jpg'.",
    discussion: """
      Signs with the first pair of THUMBFORGE_KEY and THUMBFORGE_SALT (hex). Names are \
      percent-encoded as a browser would send them; the output is the path to request.
      """)

  @Argument(help: "{recipe}/{asset}@{scale}x.{ext}, with or without a leading slash.")
  var path: String

  func run() throws {
    let encoded =
      "/" + SignCommand.percentEncoded(path.hasPrefix("/") ? String(path.dropFirst()) : path)
    do {
      _ = try ServePath("/" + URLSigner.unsignedSegment + encoded)
    } catch {
      throw ValidationError("'\(path)' is not a serve path: \(error.message)")
    }
    let signer: URLSigner
    do {
      guard let configured = try URLSigner.fromEnvironment(ProcessInfo.processInfo.environment)
      else {
        throw ValidationError(
          "no signing key: set \(URLSigner.keyVariable) and \(URLSigner.saltVariable) (hex)")
      }
      signer = configured
    } catch let error as SigningKeyError {
      throw ValidationError(error.message)
    }
    print(signer.signed(encoded))
  }

  /// Percent-encodes everything but unreserved characters, `/`, `:` and `@`.
  static func percentEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    allowed.insert(charactersIn: "-._~/:@")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
