#if canImport(CryptoKit)
  internal import CryptoKit
#else
  internal import COpenSSL
#endif

/// SHA-256 from the platform: CryptoKit on Apple systems, OpenSSL's libcrypto (libvips' own
/// dependency on Linux) elsewhere, so that no cryptography library is compiled with
/// ThumbForge. A value: a copy goes on from the bytes hashed so far.
package struct SHA256Hasher {
  static let byteCount = 32

  #if canImport(CryptoKit)
    private var state = SHA256()
  #else
    private var state: SHA256_CTX = {
      var context = SHA256_CTX()
      SHA256_Init(&context)
      return context
    }()
  #endif

  init() {}

  /// Hashes `bytes` after what was hashed before.
  mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable {
      update(buffer: UnsafeRawBufferPointer($0))
    }
    if done == nil { Array(bytes).withUnsafeBytes { update(buffer: $0) } }
  }

  private mutating func update(buffer: UnsafeRawBufferPointer) {
    #if canImport(CryptoKit)
      state.update(bufferPointer: buffer)
    #else
      SHA256_Update(&state, buffer.baseAddress, buffer.count)
    #endif
  }

  /// The digest of everything hashed (the hasher itself is left as it was).
  func finalize() -> [UInt8] {
    #if canImport(CryptoKit)
      return Array(state.finalize())
    #else
      var context = state
      var digest = [UInt8](repeating: 0, count: Self.byteCount)
      SHA256_Final(&digest, &context)
      return digest
    #endif
  }

  /// The digest of `bytes`.
  package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA256Hasher()
    hasher.update(bytes)
    return hasher.finalize()
  }
}

/// HMAC with SHA-256 from the platform (see ``SHA256Hasher``).
package enum HMACSHA256 {
  /// The 32-byte authentication code of `message` under `key`.
  package static func code(for message: [UInt8], key: [UInt8]) -> [UInt8] {
    #if canImport(CryptoKit)
      return Array(
        HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    #else
      var code = [UInt8](repeating: 0, count: SHA256Hasher.byteCount)
      var length: UInt32 = 0
      _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &code, &length)
      return code
    #endif
  }

  /// Whether `code` authenticates `message` under `key`, compared in constant time.
  package static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
    #if canImport(CryptoKit)
      return HMAC<SHA256>.isValidAuthenticationCode(
        code, authenticating: message, using: SymmetricKey(data: key))
    #else
      let expected = Self.code(for: message, key: key)
      return code.count == expected.count && CRYPTO_memcmp(code, expected, code.count) == 0
    #endif
  }
}
