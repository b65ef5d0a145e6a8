package import Foundation

/// SHA-256 content hashes, as lowercase hex.
package enum ContentHash {
  /// The hash of some bytes.
  package static func of(_ bytes: some DataProtocol) -> String {
    hex(SHA256Hasher.hash(bytes))
  }

  /// The hash of some bytes (for the server's ETags, outside this module).
  package static func of(bytes: [UInt8]) -> String {
    hex(SHA256Hasher.hash(bytes))
  }

  /// The hash of a string's UTF-8 bytes.
  package static func of(string: String) -> String {
    of(Array(string.utf8))
  }

  /// The hashes of `prefix` followed by each of `suffixes` (as UTF-8), the prefix hashed
  /// once: `of(prefix, each: [a, b])` is `[of(prefix + a), of(prefix + b)]`.
  package static func of(_ prefix: [UInt8], each suffixes: [String]) -> [String] {
    var base = SHA256Hasher()
    base.update(prefix)
    return suffixes.map { suffix in
      var hasher = base
      hasher.update(Array(suffix.utf8))
      return hex(hasher.finalize())
    }
  }

  /// The hash of a file's bytes, read in chunks.
  package static func ofFile(at path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var hasher = SHA256Hasher()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      hasher.update(chunk)
    }
    return hex(hasher.finalize())
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Lowercase hex, two digits a byte, written straight into the string's storage.
  private static func hex(_ digest: [UInt8]) -> String {
    String(unsafeUninitializedCapacity: digest.count * 2) { buffer in
      var index = 0
      for byte in digest {
        buffer[index] = hexDigits[Int(byte >> 4)]
        buffer[index + 1] = hexDigits[Int(byte & 0x0f)]
        index += 2
      }
      return index
    }
  }
}
