internal import ThumbForgeConfig
package import Vips

/// One request path of `thumbforge serve`, parsed and checked:
/// `/{signature}/{recipe}/{asset}@{scale}x.{ext}`, e.g. `/…/tile/Resorts/les-arcs@2x.jpg`.
///
/// URL text never becomes a file path: `asset` is only a name to look up among the sources
/// the server discovered. Parsing still refuses what no asset name can contain and what
/// path tricks are made of — `.` and `..` segments, encoded `/` or `\`, NUL and other
/// control characters, empty segments and over-long paths — so such requests are answered
/// 400 before any lookup.
package struct ServePath: Sendable, Equatable {
  /// The first segment exactly as sent (not percent-decoded: a signature has one spelling):
  /// a URL-safe Base64 signature, or `unsafe` when unsigned.
  package var signature: String
  /// Everything after the signature segment, exactly as sent (still percent-encoded): the
  /// text a signature covers.
  package var signedPart: String
  package var recipe: RecipeRequest
  /// The asset's qualified name (group path + asset name), percent-decoded.
  package var asset: String
  package var scale: Int
  /// The extension's format; nil for `.auto`, whose format the server picks from the
  /// request's `Accept` header (AVIF, then WebP, else the recipe's own format).
  package var format: ImageFormat?

  /// The longest path accepted, in bytes as sent.
  package static let maximumLength = 1024
  /// The scales a request may ask for.
  package static let scales = 1...3

  /// Parses a request path (without query string) as sent by the client.
  package init(_ raw: String) throws(ServePathError) {
    let decoded: [String]
    (signature, signedPart, decoded) = try Self.segments(
      of: raw, shape: "/{signature}/{recipe}/{asset}@{scale}x.{ext}")
    recipe = try RecipeRequest(parsing: decoded[1])
    let last = decoded[decoded.count - 1]
    guard let dot = last.lastIndex(of: "."), let at = last[..<dot].lastIndex(of: "@") else {
      throw .malformed("the file name must end in @{scale}x.{ext}, e.g. Italy@2x.png")
    }
    let scaleText = last[last.index(after: at)..<dot]
    guard scaleText.last == "x", let scale = Int(scaleText.dropLast()), Self.scales ~= scale
    else {
      throw .malformed("scale '\(scaleText)' is not one of 1x, 2x, 3x")
    }
    self.scale = scale
    let ext = last[last.index(after: dot)...].lowercased()
    if ext == "auto" {
      format = nil
    } else if let format = Self.formats[ext] {
      self.format = format
    } else {
      throw .malformed("extension '.\(ext)' is not one of png, jpg, webp, heif, avif, auto")
    }
    let name = String(last[..<at])
    guard !name.isEmpty else { throw .malformed("the asset name is empty") }
    asset = (decoded[2..<(decoded.count - 1)] + [name]).joined(separator: "/")
  }

  /// The checks every request path passes, whatever it asks for: its length, a leading `/`,
  /// at least three segments (`shape` says which), each percent-decoded (``decode(_:)``).
  /// Returns the signature segment as sent, the rest as sent (what a signature covers) and
  /// every segment decoded.
  fileprivate static func segments(of raw: String, shape: String) throws(ServePathError) -> (
    signature: String, signedPart: String, decoded: [String]
  ) {
    guard raw.utf8.count <= maximumLength else {
      throw .malformed("the path is longer than \(maximumLength) bytes")
    }
    guard raw.hasPrefix("/") else { throw .malformed("the path must start with /") }
    let segments = raw.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    guard segments.count >= 3 else { throw .malformed("expected \(shape)") }
    let decoded = try segments.map { segment throws(ServePathError) in try decode(segment) }
    return (
      String(segments[0]), String(raw.dropFirst(segments[0].utf8.count + 1)), decoded
    )
  }

  private static let formats: [String: ImageFormat] = [
    "png": .png, "jpg": .jpeg, "jpeg": .jpeg, "webp": .webp, "heif": .heif, "heic": .heif,
    "avif": .avif,
  ]

  /// Percent-decodes one segment and refuses what cannot be part of an asset name.
  private static func decode(_ segment: Substring) throws(ServePathError) -> String {
    guard !segment.isEmpty else { throw .malformed("the path has an empty segment") }
    var bytes: [UInt8] = []
    var iterator = segment.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(Hex.value),
        let low = iterator.next().flatMap(Hex.value)
      else { throw .malformed("bad percent-encoding in '\(segment)'") }
      let value = high << 4 | low
      guard value != UInt8(ascii: "/"), value != UInt8(ascii: "\\") else {
        throw .malformed("an encoded / or \\ is not allowed")
      }
      bytes.append(value)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .malformed("the path is not valid UTF-8")
    }
    guard text != ".", text != ".." else {
      throw .malformed("'.' and '..' segments are not allowed")
    }
    guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw .malformed("control characters (NUL included) are not allowed")
    }
    guard !text.utf8.contains(UInt8(ascii: "\\")) else { throw .malformed("'\\' is not allowed") }
    return text
  }
}

/// A placeholder's request path: `/{signature}/{recipe}/{asset}.thumbhash`, the ThumbHash of
/// the imageset `recipe` makes of `asset` (`placeholders: thumbhash`), checked as
/// ``ServePath`` checks an image's.
package struct PlaceholderPath: Sendable, Equatable {
  package var signature: String
  /// Everything after the signature segment, as sent: the text a signature covers.
  package var signedPart: String
  /// The recipe's name (ad-hoc boxes have no placeholder).
  package var recipe: String
  /// The asset's qualified name, percent-decoded.
  package var asset: String

  /// The extension that asks for a placeholder.
  package static let suffix = ".thumbhash"

  /// Parses `raw` when it ends in ``suffix``; nil for any other path (an image's).
  package init?(_ raw: String) throws(ServePathError) {
    guard raw.hasSuffix(Self.suffix) else { return nil }
    let decoded: [String]
    (signature, signedPart, decoded) = try ServePath.segments(
      of: raw, shape: "/{signature}/{recipe}/{asset}.thumbhash")
    guard case .named(let recipe) = try RecipeRequest(parsing: decoded[1]) else {
      throw .malformed("an ad-hoc box has no placeholder; name a recipe of the configuration")
    }
    self.recipe = recipe
    let name = String(decoded[decoded.count - 1].dropLast(Self.suffix.count))
    guard !name.isEmpty else { throw .malformed("the asset name is empty") }
    asset = (decoded[2..<(decoded.count - 1)] + [name]).joined(separator: "/")
  }
}

extension RecipeRequest {
  /// Parses the recipe segment: a name, or `kind:WIDTHxHEIGHT` (points).
  init(parsing text: String) throws(ServePathError) {
    guard let colon = text.firstIndex(of: ":") else {
      self = .named(text)
      return
    }
    let kindName = String(text[..<colon])
    guard let kind = RecipeKind(rawValue: kindName), Self.adHocKinds.contains(kind) else {
      throw .malformed("ad-hoc recipe '\(kindName)' is not one of fit, fill")
    }
    let sizeText = text[text.index(after: colon)...]
    let size = sizeText.split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0,
      height > 0
    else {
      throw .malformed("ad-hoc size '\(sizeText)' is not WIDTHxHEIGHT in points")
    }
    self = .adHoc(kind, width: width, height: height)
  }
}

/// Why a request path was refused (answered 400).
package enum ServePathError: Error, Equatable, Sendable {
  case malformed(String)

  /// The reason, for the response body and the log.
  package var message: String {
    switch self {
    case .malformed(let reason): reason
    }
  }
}
