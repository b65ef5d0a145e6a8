import Foundation
import Testing
import ThumbForgeTestSupport

@testable import ThumbForge
@testable import ThumbForgeBasics

/// The platform's SHA-256 and HMAC (``SHA256Hasher``, ``HMACSHA256``): the published test
/// vectors, generated inputs against coreutils' `sha256sum`, and the hasher's own promises
/// (chunks and copies hash like the whole).
@Suite("SHA-256 and HMAC from the platform")
struct SHA256HasherTests {
  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  static func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
  }

  @Test("FIPS 180-2's examples")
  func publishedDigests() {
    let cases: [(String, String)] = [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ]
    for (text, digest) in cases {
      #expect(Self.hex(SHA256Hasher.hash(Array(text.utf8))) == digest, "\(text)")
    }
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      Self.hex(SHA256Hasher.hash(million))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("RFC 4231's HMAC-SHA-256 cases, and codes verified only when exact")
  func publishedCodes() {
    let cases: [(key: [UInt8], message: [UInt8], code: String)] = [
      (
        [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
      ),
      (
        Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
      ),
      (
        [UInt8](repeating: 0xaa, count: 131),
        Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
      ),
    ]
    for (key, message, code) in cases {
      let made = HMACSHA256.code(for: message, key: key)
      #expect(Self.hex(made) == code)
      #expect(HMACSHA256.isValid(made, for: message, key: key))
      var wrong = made
      wrong[31] ^= 1
      #expect(!HMACSHA256.isValid(wrong, for: message, key: key))
      #expect(!HMACSHA256.isValid(Array(made.prefix(31)), for: message, key: key))
    }
  }

  /// Generated inputs of every length up to a few blocks and some large ones, each hashed
  /// here whole, in random chunks and from a copy of a prefix's state, and by `sha256sum`.
  @Test("generated inputs hash as sha256sum hashes them, however they are fed")
  func agreesWithCoreutils() async throws {
    var random = PropertyRandom(seed: 256)
    let lengths = Array(0...200) + (0..<20).map { _ in random.int(201...300_000) }
    let folder = try Fixtures.temporaryDirectory(prefix: "thumbforge-sha256")
    defer { try? FileManager.default.removeItem(at: folder) }
    var mine: [String] = []
    var paths: [String] = []
    for (index, length) in lengths.enumerated() {
      let bytes = (0..<length).map { _ in UInt8(random.int(0...255)) }
      let whole = Self.hex(SHA256Hasher.hash(bytes))
      var chunked = SHA256Hasher()
      var offset = 0
      while offset < bytes.count {
        let size = min(random.int(1...70_000), bytes.count - offset)
        chunked.update(bytes[offset..<offset + size])
        offset += size
      }
      #expect(Self.hex(chunked.finalize()) == whole, "\(length) bytes in chunks")
      let split = random.int(0...length)
      var prefix = SHA256Hasher()
      prefix.update(bytes[..<split])
      var copy = prefix
      copy.update(bytes[split...])
      #expect(Self.hex(copy.finalize()) == whole, "\(length) bytes, copied at \(split)")
      #expect(Self.hex(prefix.finalize()) == Self.hex(SHA256Hasher.hash(bytes[..<split])))
      let path = folder.appendingPathComponent("input\(index)").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
      mine.append(whole)
    }
    let files = paths
    let theirs = try await offPool { try Self.sha256sum(files) }
    #expect(theirs == mine)
    #expect(try ContentHash.ofFile(at: paths.last!) == mine.last)
  }

  /// The digests `sha256sum` prints for `paths`, in order.
  static func sha256sum(_ paths: [String]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum"] + paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "sha256sum failed")
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map {
      String($0.prefix(64))
    }
  }
}
