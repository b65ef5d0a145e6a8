import Testing

@testable import ThumbForgeServer

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
    let old = try Self.signer(["THUMBFORGE_KEY": "00ff", "THUMBFORGE_SALT": "aa"])
    let both = try Self.signer(["THUMBFORGE_KEY": "1234,00ff", "THUMBFORGE_SALT": "bb,aa"])
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
  }
}
