/// The random source of property tests and fuzz targets: SplitMix64 from a seed, so that a
/// seed names one case on every machine; or a fuzzer's input bytes, read 8 at a time before
/// SplitMix64 takes over (seeded from their hash), so that libFuzzer's mutations steer the
/// choices and its extreme byte values (0x00, 0xFF) reach the extreme cases.
package struct PropertyRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64
  private var bytes: [UInt8]
  private var offset = 0

  /// A generator that gives the same sequence for the same seed.
  package init(seed: UInt64) {
    state = seed
    bytes = []
  }

  /// A generator that reads `bytes` first, then continues from their hash.
  package init(bytes: [UInt8]) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    state = hash
    self.bytes = bytes
  }

  package mutating func next() -> UInt64 {
    if offset < bytes.count {
      var value: UInt64 = 0
      for index in 0..<8 {
        let byte = offset + index < bytes.count ? bytes[offset + index] : 0
        value |= UInt64(byte) << (8 * UInt64(7 - index))
      }
      offset += 8
      return value
    }
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in `range`.
  package mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// True with probability `p`.
  package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// One of `items` (not empty).
  package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

  /// A non-empty subset of `items`, in their order.
  package mutating func subset<T>(_ items: [T]) -> [T] {
    while true {
      let chosen = items.filter { _ in chance(0.5) }
      if !chosen.isEmpty { return chosen }
    }
  }
}
