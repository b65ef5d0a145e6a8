/// Splits a build's jobs between shards: balanced by estimated cost, and stable, so that a
/// source added or removed moves few others (a shard's previous results stay useful, and a
/// re-run shard gets the same jobs).
///
/// The method is consistent hashing with bounded loads (Mirrokni, Thorup and Zadimoghaddam,
/// 2018) over rendezvous hashing: every job ranks the shards by a hash of its name and the
/// shard; jobs, heaviest first, go to the first shard in their ranking whose load stays
/// within `(1 + slack)` × the average. Only jobs whose favourite shard is full go elsewhere,
/// so an unrelated change moves a job only when it tips a shard over the bound.
package struct ShardAssignment: Sendable {
  package struct Item: Sendable {
    /// A stable name (the asset's qualified name).
    var name: String
    /// Relative cost (see ``BuildEngine/estimatedCost(of:sets:)``).
    var cost: Int

    package init(name: String, cost: Int) {
      self.name = name
      self.cost = cost
    }
  }

  /// How far over the average a shard may go before jobs that prefer it go elsewhere.
  static let slack = 0.125

  /// A fixed cost per job on top of its pixels: opening files, hashing, writing
  /// `Contents.json` (about what resizing a quarter-megapixel image costs), so that many
  /// tiny jobs are spread too.
  static let overheadPerJob = 250_000

  /// The shard (0-based) of each item, in the items' order.
  package static func assign(_ items: [Item], count: Int) -> [Int] {
    guard count > 1 else { return Array(repeating: 0, count: items.count) }
    let costs = items.map { $0.cost + overheadPerJob }
    let total = costs.reduce(0, +)
    let bound = Int((Double(total) / Double(count) * (1 + slack)).rounded(.up))
    // Heaviest first (names break ties): the order is the same in every shard's process.
    let order = items.indices.sorted {
      (costs[$0], items[$1].name) > (costs[$1], items[$0].name)
    }
    var loads = Array(repeating: 0, count: count)
    var shards = Array(repeating: 0, count: items.count)
    for index in order {
      let ranking = ranking(of: items[index].name, count: count)
      let chosen =
        ranking.first { loads[$0] + costs[index] <= bound }
        ?? ranking.min { loads[$0] < loads[$1] }!
      loads[chosen] += costs[index]
      shards[index] = chosen
    }
    return shards
  }

  /// The shards (0-based) in the order `name` prefers them (rendezvous hashing).
  static func ranking(of name: String, count: Int) -> [Int] {
    let base = fnv1a(name)
    let scores = (0..<count).map { mix(base ^ mix(UInt64($0) &+ 0x9e37_79b9_7f4a_7c15)) }
    return (0..<count).sorted { (scores[$0], $1) > (scores[$1], $0) }
  }

  /// The shard (0-based) `name` prefers, for things without a cost (problems, kept entries).
  package static func favourite(of name: String, count: Int) -> Int {
    count > 1 ? ranking(of: name, count: count)[0] : 0
  }

  /// FNV-1a over the UTF-8 bytes: the same on every machine and run (Swift's `Hasher` is
  /// seeded per process).
  private static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// SplitMix64's finaliser: spreads FNV's weak low bits over the whole word.
  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
