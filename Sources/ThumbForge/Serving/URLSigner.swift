internal import Foundation
internal import ThumbForgeBasics

/// Signs and verifies `serve` paths, as imgproxy does: the signature is the URL-safe Base64
/// (no padding) of HMAC-SHA256 over a salt followed by the path after the signature segment
/// (from its leading `/`, exactly as requested). Several key/salt pairs may be configured for
/// rotation: the first signs, every pair verifies.
///
/// ```swift
/// let signer = URLSigner(keys: [SigningKey(key: key, salt: salt)])
/// signer.signed("/tile/Resorts/les-arcs@2x.jpg")  // "/Xo5…Q/tile/Resorts/les-arcs@2x.jpg"
/// ```
package struct URLSigner: Sendable {
  package var keys: [SigningKey]

  /// The first segment of an unsigned path, accepted only when no key is configured.
  package static let unsignedSegment = "unsafe"
  /// The shortest key accepted: HMAC-SHA256's output size (RFC 2104 advises no shorter).
  package static let minimumKeyBytes = 32
  /// Environment variables holding the hex keys and salts, comma-separated for rotation.
  package static let keyVariable = "THUMBFORGE_KEY"
  package static let saltVariable = "THUMBFORGE_SALT"

  package init(keys: [SigningKey]) {
    self.keys = keys
  }

  /// The signer configured by `THUMBFORGE_KEY` and `THUMBFORGE_SALT`: hex, the same number
  /// of comma-separated values in each (`nil` when neither is set: paths are unsigned).
  package static func fromEnvironment(_ environment: [String: String]) throws(SigningKeyError)
    -> URLSigner?
  {
    let keyText = environment[keyVariable] ?? ""
    let saltText = environment[saltVariable] ?? ""
    if keyText.isEmpty && saltText.isEmpty { return nil }
    let keys = keyText.split(separator: ",", omittingEmptySubsequences: false)
    let salts = saltText.split(separator: ",", omittingEmptySubsequences: false)
    guard keys.count == salts.count else {
      throw SigningKeyError(
        "\(keyVariable) has \(keys.count) value(s) but \(saltVariable) has \(salts.count): give one salt per key"
      )
    }
    var pairs: [SigningKey] = []
    for (index, (key, salt)) in zip(keys, salts).enumerated() {
      guard let keyBytes = hexBytes(key), !keyBytes.isEmpty else {
        throw SigningKeyError("\(keyVariable) value \(index + 1) is not a non-empty hex string")
      }
      guard keyBytes.count >= minimumKeyBytes else {
        throw SigningKeyError(
          "\(keyVariable) value \(index + 1) is \(keyBytes.count) bytes; a key must be at least \(minimumKeyBytes) bytes (\(2 * minimumKeyBytes) hex digits, e.g. from `openssl rand -hex 32`)"
        )
      }
      guard let saltBytes = hexBytes(salt) else {
        throw SigningKeyError("\(saltVariable) value \(index + 1) is not a hex string")
      }
      pairs.append(SigningKey(key: keyBytes, salt: saltBytes))
    }
    return URLSigner(keys: pairs)
  }

  /// The signature of `path` (the part after the signature segment, from its leading `/`).
  package func signature(for path: String) -> String {
    Self.base64URL(Self.code(for: path, with: keys[0]))
  }

  /// `path` with its signature segment in front.
  package func signed(_ path: String) -> String {
    "/" + signature(for: path) + path
  }

  /// Whether `signature` is a valid signature of `path` under any configured pair, compared
  /// in constant time. Only the canonical spelling counts: 43 characters of URL-safe Base64
  /// without padding whose unused low bits are zero (what ``signature(for:)`` writes), so
  /// one image has one URL.
  package func verify(signature: String, path: String) -> Bool {
    guard signature.utf8.count == 43, let code = Self.decodeBase64URL(signature),
      code.count == 32, Self.base64URL(code) == signature
    else { return false }
    var valid = false
    for pair in keys {
      // Every pair is tried, so the time taken does not tell which one matched.
      let message = pair.salt + Array(path.utf8)
      if HMACSHA256.isValid(code, for: message, key: pair.key) { valid = true }
    }
    return valid
  }

  private static func code(for path: String, with pair: SigningKey) -> [UInt8] {
    let message = pair.salt + Array(path.utf8)
    return HMACSHA256.code(for: message, key: pair.key)
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }

  static func decodeBase64URL(_ text: String) -> [UInt8]? {
    guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }) else {
      return nil
    }
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }

  static func hexBytes(_ text: Substring) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = Hex.value(digits[index]), let low = Hex.value(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }
}

/// One key/salt pair of a ``URLSigner``.
package struct SigningKey: Sendable, Equatable {
  package var key: [UInt8]
  package var salt: [UInt8]

  package init(key: [UInt8], salt: [UInt8]) {
    self.key = key
    self.salt = salt
  }
}

/// Why the signing keys in the environment cannot be used.
package struct SigningKeyError: Error, Equatable, Sendable {
  package var message: String

  init(_ message: String) {
    self.message = message
  }
}
