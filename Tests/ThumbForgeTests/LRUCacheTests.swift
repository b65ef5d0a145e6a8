import Testing

@testable import ThumbForge

/// The in-memory layers of `serve` (outputs, decoded masters) are one LRU.
@Suite struct LRUCacheTests {
  @Test func evictsTheLeastRecentlyUsedPastTheCapacity() {
    let cache = LRUCache<Int>(capacity: 30)
    for n in 0..<3 { cache.store(n, cost: 10, for: "k\(n)") }
    #expect(cache.value(for: "k0") == 0)  // k0 now the most recent: k1 is the oldest
    cache.store(9, cost: 10, for: "k9")
    #expect(cache.value(for: "k1") == nil)
    #expect(
      cache.value(for: "k0") == 0 && cache.value(for: "k2") == 2 && cache.value(for: "k9") == 9)
    #expect(cache.usage.cost == 30 && cache.usage.entries == 3)
    // One large entry evicts as many old ones as it needs.
    cache.store(7, cost: 25, for: "big")
    #expect(cache.usage.entries == 1 && cache.value(for: "big") == 7)
  }

  @Test func replacesAndRefusesOversizedEntries() {
    let cache = LRUCache<String>(capacity: 100, largestEntry: 40)
    cache.store("a", cost: 30, for: "k")
    cache.store("b", cost: 20, for: "k")
    #expect(cache.value(for: "k") == "b" && cache.usage.cost == 20)
    cache.store("huge", cost: 41, for: "h")
    #expect(cache.value(for: "h") == nil && cache.usage.entries == 1)
  }

  /// Many entries in and out: the recency list and the total stay consistent.
  @Test func staysConsistentUnderChurn() {
    let cache = LRUCache<Int>(capacity: 1000)
    var random = SystemRandomNumberGenerator()
    for step in 0..<5000 {
      let key = "k\(Int.random(in: 0..<200, using: &random))"
      if step % 3 == 0 {
        _ = cache.value(for: key)
      } else {
        cache.store(step, cost: Int.random(in: 1...100, using: &random), for: key)
      }
      #expect(cache.usage.cost <= 1000)
    }
  }
}
