import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics

@Suite("Content hashes")
struct ContentHashTests {
  @Test func knownValue() {
    #expect(
      ContentHash.of(string: "abc")
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test("a shared prefix hashed once gives the hashes of each whole")
  func prefixWithEachSuffix() {
    let prefix = Array("(job encoding)".utf8)
    let suffixes = ["Flags/Italy.imageset", "", "Flags/Italy-flag.imageset", "Zürich"]
    #expect(
      ContentHash.of(prefix, each: suffixes)
        == suffixes.map { ContentHash.of(prefix + Array($0.utf8)) })
  }
}
