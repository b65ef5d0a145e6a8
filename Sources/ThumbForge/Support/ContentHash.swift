internal import Crypto
public import Foundation

/// SHA-256 content hashes, as lowercase hex.
public enum ContentHash {
  /// The hash of some bytes.
  public static func of(_ bytes: some DataProtocol) -> String {
    hex(SHA256.hash(data: bytes))
  }

  /// The hash of a string's UTF-8 bytes.
  public static func of(string: String) -> String {
    of(Array(string.utf8))
  }

  /// The hash of a file's bytes, read in chunks.
  public static func ofFile(at path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      hasher.update(data: chunk)
    }
    return hex(hasher.finalize())
  }

  private static func hex(_ digest: SHA256.Digest) -> String {
    digest.map { byte in
      let text = String(byte, radix: 16)
      return text.count == 1 ? "0" + text : text
    }.joined()
  }
}
