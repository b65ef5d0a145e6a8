import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgePlanning

@Suite("Shard assignment")
struct ShardAssignmentTests {
  /// A folder like a real one: many small flags and icons, fewer large photos, a few huge.
  static func items(count: Int, seed: UInt64 = 1) -> [ShardAssignment.Item] {
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<count).map { index in
      let cost: Int
      switch next() % 10 {
      case 0: cost = 8_000_000 + next() % 16_000_000  // a large photo
      case 1, 2, 3: cost = 1_000_000 + next() % 2_000_000
      default: cost = 10_000 + next() % 100_000  // a flag or an icon
      }
      return ShardAssignment.Item(name: "Group\(index % 7)/Asset\(index)", cost: cost)
    }
  }

  static func loads(_ items: [ShardAssignment.Item], _ shards: [Int], count: Int) -> [Int] {
    var loads = Array(repeating: 0, count: count)
    for (item, shard) in zip(items, shards) {
      loads[shard] += item.cost + ShardAssignment.overheadPerJob
    }
    return loads
  }

  @Test("Every shard's estimated cost is within the bound of the average", arguments: [2, 3, 4, 8])
  func balanced(count: Int) {
    let items = Self.items(count: 500)
    let shards = ShardAssignment.assign(items, count: count)
    let loads = Self.loads(items, shards, count: count)
    let average = Double(loads.reduce(0, +)) / Double(count)
    for load in loads {
      #expect(Double(load) <= average * (1 + ShardAssignment.slack) + 1, "\(loads)")
      #expect(Double(load) >= average * (1 - 2 * ShardAssignment.slack), "\(loads)")
    }
  }

  @Test("The split depends only on the items: the same in every process and order")
  func deterministic() {
    let items = Self.items(count: 300)
    let shards = ShardAssignment.assign(items, count: 4)
    #expect(ShardAssignment.assign(items, count: 4) == shards)
    let reversed = ShardAssignment.assign(items.reversed(), count: 4)
    #expect(Array(reversed.reversed()) == shards)
    // Fixed values: a change of hash or order would split every CI matrix differently
    // between two versions (then merge refuses the mix anyway, by tool version).
    #expect(ShardAssignment.ranking(of: "Flags/Austria", count: 4) == [0, 2, 3, 1])
    #expect(ShardAssignment.ranking(of: "Resorts/Zermatt", count: 4) == [1, 3, 2, 0])
  }

  @Test("Adding or removing one source moves under 3 % of the others", arguments: [2, 4, 8])
  func stable(count: Int) {
    let items = Self.items(count: 400)
    let before = ShardAssignment.assign(items, count: count)
    /// How many of `items`' jobs other than `skipping` are on another shard in `after`.
    func moved(_ after: [ShardAssignment.Item], _ shards: [Int], skipping: Int? = nil) -> Int {
      let now = Dictionary(uniqueKeysWithValues: zip(after.map(\.name), shards))
      return items.indices.filter { $0 != skipping && now[items[$0].name] != before[$0] }.count
    }
    var counts: [Int] = []
    for (offset, extra) in Self.items(count: 20, seed: 99).enumerated() {
      let added = items + [ShardAssignment.Item(name: "New/Asset\(offset)", cost: extra.cost)]
      counts.append(moved(added, ShardAssignment.assign(added, count: count)))
      // A different source removed each time, spread over the list (heavy and light ones).
      let gone = offset * 19 % items.count
      var removed = items
      removed.remove(at: gone)
      counts.append(moved(removed, ShardAssignment.assign(removed, count: count), skipping: gone))
    }
    // A modulo split (hash % N) moves nothing either, but cannot balance cost; a greedy
    // split by cost balances but moves about half of the jobs on any change.
    let average = Double(counts.reduce(0, +)) / Double(counts.count)
    #expect(average < Double(items.count) * 0.03, "moved on average \(average): \(counts)")
  }

  @Test("A shard parses as I/N, 1-based, and every mistake is explained")
  func parsing() throws {
    #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    #expect(try Shard(parsing: " 1 / 1 ") == Shard(index: 1, count: 1))
    for (text, message) in [
      ("0/4", "the shard index must be 1…4, got 0"),
      ("5/4", "the shard index must be 1…4, got 5"),
      ("1/0", "the shard count must be 1…1024, got 0"),
      ("2", "'2' is not a shard: write I/N"),
      ("a/b", "'a/b' is not a shard"),
    ] {
      #expect(throws: ShardError.self) { try Shard(parsing: text) }
      do { _ = try Shard(parsing: text) } catch {
        #expect(error.message.contains(message), "\(error)")
      }
    }
    #expect(try Shard.resolve(explicit: nil, count: nil, environment: [:]) == nil)
    #expect(
      try Shard.resolve(explicit: nil, count: 3, environment: ["JOB_COMPLETION_INDEX": "2"])
        == Shard(index: 3, count: 3))
    #expect(
      try Shard.resolve(explicit: nil, count: nil, environment: ["THUMBFORGE_SHARD": "1/2"])
        == Shard(index: 1, count: 2))
    #expect(throws: ShardError.self) {
      try Shard.resolve(explicit: "1/2", count: 2, environment: [:])
    }
    #expect(throws: ShardError.self) {
      try Shard.resolve(explicit: nil, count: 2, environment: [:])
    }
  }
}
