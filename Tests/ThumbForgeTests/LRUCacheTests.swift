import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics

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

  /// Many entries in and out, checked against a plain list ordered by recency: the same
  /// values are found and evicted, and the total stays exact (nodes of evicted entries are
  /// reused, so this also covers the free list).
  @Test func matchesAReferenceModelUnderChurn() {
    let cache = LRUCache<Int>(capacity: 1000, largestEntry: 400)
    var model: [(key: String, value: Int, cost: Int)] = []  // most recent last
    var random = SystemRandomNumberGenerator()
    for step in 0..<5000 {
      let key = "k\(Int.random(in: 0..<200, using: &random))"
      if step % 3 == 0 {
        let found = model.firstIndex { $0.key == key }
        #expect(cache.value(for: key) == found.map { model[$0].value })
        if let found { model.append(model.remove(at: found)) }
      } else {
        let cost = Int.random(in: 1...500, using: &random)
        cache.store(step, cost: cost, for: key)
        guard cost <= 400 else { continue }
        model.removeAll { $0.key == key }
        model.append((key, step, cost))
        while model.reduce(0, { $0 + $1.cost }) > 1000 { model.removeFirst() }
      }
      #expect(cache.usage.cost == model.reduce(0) { $0 + $1.cost })
      #expect(cache.usage.entries == model.count)
    }
  }
}
