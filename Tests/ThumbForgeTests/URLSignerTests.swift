import Testing

@testable import ThumbForge

@Suite("URL signatures", .timeLimit(.minutes(10)))
struct URLSignerTests {
  static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
  static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

  static func signer(_ environment: [String: String]) throws -> URLSigner {
    try #require(try URLSigner.fromEnvironment(environment))
  }

  /// Expected values computed independently with Python's `hmac` and `base64` modules
  /// (`base64.urlsafe_b64encode(hmac.new(key, salt + path, sha256).digest()).rstrip(b"=")`).
  @Test func matchesAnIndependentHMAC() throws {
    let signer = try Self.signer(["THUMBFORGE_KEY": Self.key, "THUMBFORGE_SALT": Self.salt])
    #expect(
      signer.signature(for: "/tile/Resorts/les-arcs@2x.jpg")
        == "TZS9jL2ojAsbISsXcvBKvkCV_FE-LQiMP-JYHS6J7so")
    #expect(
      signer.signed(
        "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        == "/90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    )
  }

  @Test func verifiesItsOwnAndRefusesOthers() throws {
    let signer = try Self.signer(["THUMBFORGE_KEY": Self.key, "THUMBFORGE_SALT": Self.salt])
    let path = "/flag/Flags/United%20States@3x.png"
    let signature = signer.signature(for: path)
    #expect(signer.verify(signature: signature, path: path))
    #expect(!signer.verify(signature: signature, path: "/flag/Flags/Italy@3x.png"))
    #expect(!signer.verify(signature: String(signature.dropLast()), path: path))
    #expect(!signer.verify(signature: "unsafe", path: path))
    #expect(!signer.verify(signature: "", path: path))
    // Only the URL-safe alphabet: standard Base64's + and / are refused.
    #expect(URLSigner.decodeBase64URL("ab+d") == nil)
    #expect(URLSigner.decodeBase64URL("ab/d") == nil)
    #expect(URLSigner.decodeBase64URL("ab-_") == [0x69, 0xBF, 0xBF])
  }

  @Test("rotation: the first pair signs, every pair verifies")
  func rotation() throws {
    let older = String(repeating: "00ff", count: 16)
    let newer = String(repeating: "1234", count: 16)
    let old = try Self.signer(["THUMBFORGE_KEY": older, "THUMBFORGE_SALT": "aa"])
    let both = try Self.signer(["THUMBFORGE_KEY": newer + "," + older, "THUMBFORGE_SALT": "bb,aa"])
    let path = "/tile/Resorts/les-arcs@2x.jpg"
    #expect(both.verify(signature: old.signature(for: path), path: path))
    #expect(both.verify(signature: both.signature(for: path), path: path))
    #expect(!old.verify(signature: both.signature(for: path), path: path))
  }

  @Test func environmentErrors() throws {
    #expect(try URLSigner.fromEnvironment([:]) == nil)
    #expect(throws: SigningKeyError.self) {
      try URLSigner.fromEnvironment(["THUMBFORGE_KEY": "zz", "THUMBFORGE_SALT": "aa"])
    }
    #expect(throws: SigningKeyError.self) {
      try URLSigner.fromEnvironment(["THUMBFORGE_KEY": "abc", "THUMBFORGE_SALT": "aa"])
    }
    #expect(throws: SigningKeyError.self) {
      try URLSigner.fromEnvironment(["THUMBFORGE_KEY": "aa,bb", "THUMBFORGE_SALT": "aa"])
    }
    #expect(throws: SigningKeyError.self) {
      try URLSigner.fromEnvironment(["THUMBFORGE_SALT": "aa"])
    }
    // A key shorter than 32 bytes (HMAC-SHA256's output) is refused, with the reason.
    #expect(throws: SigningKeyError.self) {
      try URLSigner.fromEnvironment(["THUMBFORGE_KEY": "01", "THUMBFORGE_SALT": "01"])
    }
    do {
      _ = try URLSigner.fromEnvironment([
        "THUMBFORGE_KEY": String(repeating: "ab", count: 31), "THUMBFORGE_SALT": "01",
      ])
      Issue.record("a 31-byte key was accepted")
    } catch {
      #expect(error.message.contains("32 bytes"), "\(error.message)")
    }
  }

  /// One signature, one spelling: a trailing `=`, another last character with the same
  /// bytes (Base64's unused low bits), or a percent-encoded character are all refused, so a
  /// cache in front sees one URL per image.
  @Test("only the canonical spelling of a signature verifies")
  func canonicalSignatures() throws {
    let signer = try Self.signer(["THUMBFORGE_KEY": Self.key, "THUMBFORGE_SALT": Self.salt])
    let path = "/tile/Resorts/les-arcs@2x.jpg"
    let signature = signer.signature(for: path)
    #expect(signature.utf8.count == 43)
    #expect(signer.verify(signature: signature, path: path))
    #expect(!signer.verify(signature: signature + "=", path: path))
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let last = alphabet.firstIndex(of: signature.last!)!
    for low in 1..<4 {
      let twin = String(signature.dropLast()) + String(alphabet[last ^ low])
      #expect(!signer.verify(signature: twin, path: path), "\(twin)")
    }
    // The signature segment is compared as sent: a percent-encoded character is not the
    // character.
    let first = signature.utf8.first!
    let encoded = "%" + String(first, radix: 16, uppercase: true) + signature.dropFirst()
    let parsed = try ServePath("/" + encoded + path)
    #expect(parsed.signature == encoded)
    #expect(!signer.verify(signature: parsed.signature, path: parsed.signedPart))
  }
}
