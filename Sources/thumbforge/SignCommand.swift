import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge sign PATH`: the signed form of a `serve` path.
struct SignCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sign",
    abstract: "Print the signed form of a serve path, e.g. 'tile/Resorts/les-arcs@2x.jpg'.",
    discussion: """
      Signs with the first pair of THUMBFORGE_KEY and THUMBFORGE_SALT (hex). Names are \
      percent-encoded as a browser would send them; the output is the path to request. \
      Exit codes: 0 printed, 2 not a serve path (usage) or no usable signing key.
      """)

  @Argument(
    help:
      "{recipe}/{asset}@{scale}x.{ext}, with or without a leading slash, or the unsigned URL's path (/unsafe/{recipe}/…)."
  )
  var path: String

  /// The path as it is signed: without a leading slash or an `unsafe/` segment (the same
  /// request, unsigned), percent-encoded, with a leading slash.
  private var encoded: String {
    var text = path.hasPrefix("/") ? String(path.dropFirst()) : path
    let unsigned = URLSigner.unsignedSegment + "/"
    if text.hasPrefix(unsigned) { text = String(text.dropFirst(unsigned.count)) }
    return "/" + SignCommand.percentEncoded(text)
  }

  func validate() throws {
    do {
      _ = try ServePath("/" + URLSigner.unsignedSegment + encoded)
    } catch {
      // ServePath speaks of a whole request path; sign takes it without the signature.
      let message = error.message.replacingOccurrences(
        of: "/{signature}/{recipe}", with: "{recipe}")
      throw ValidationError("'\(path)' is not a serve path: \(message)")
    }
  }

  func run() throws {
    // A key that is not set (or not hex) is not about how the command was called: no usage.
    let signer: URLSigner
    do {
      guard let configured = try URLSigner.fromEnvironment(ProcessInfo.processInfo.environment)
      else {
        throw CommandFailure(
          "no signing key: set \(URLSigner.keyVariable) and \(URLSigner.saltVariable) (hex)")
      }
      signer = configured
    } catch let error as SigningKeyError {
      throw CommandFailure(error.message)
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
