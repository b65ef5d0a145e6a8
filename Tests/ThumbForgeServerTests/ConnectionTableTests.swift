import Synchronization
import Testing
import ThumbForgeTestSupport

@testable import ThumbForgeServer

/// The connection cap's choice of which connection to close, against a full scan.
@Suite("serve: connection table")
struct ConnectionTableTests {
  /// Connections of the model: an identity, its activity, and a clock for idle moments.
  final class Connection {
    let activity = ConnectionActivity()
  }

  struct Model {
    var table: ConnectionTable<Int>
    var open: [Int: Connection] = [:]
    var clock: UInt64 = 0
    var next = 0

    init(limit: Int) { table = ConnectionTable(limit: limit) }

    mutating func stamp(_ connection: Connection) {
      clock += 1
      connection.activity.idleSince.store(clock, ordering: .relaxed)
    }

    /// The connection a full scan would close: idle, idle longest.
    func expectedVictim() -> Int? {
      open.filter { $0.value.activity.isIdle }
        .min {
          $0.value.activity.idleSince.load(ordering: .relaxed)
            < $1.value.activity.idleSince.load(ordering: .relaxed)
        }?
        .key
    }

    /// Opens a connection; returns whether it was admitted and whom it evicted.
    mutating func connect() -> (admitted: Bool, evicted: Int?) {
      let connection = Connection()
      stamp(connection)
      next += 1
      let result = table.admit(
        ObjectIdentifier(connection), .init(payload: next, activity: connection.activity))
      if let evicted = result.evicted { open = open.filter { $0.key != evicted } }
      if result.admitted { open[next] = connection }
      return result
    }
  }

  @Test("at the cap the connection idle longest is closed; when all are busy, the new one")
  func oldestIdleOrRefused() {
    var model = Model(limit: 3)
    for _ in 0..<3 { #expect(model.connect() == (true, nil)) }
    // 1 busy, 2 idle since its opening, 3 busy then idle again (the latest moment).
    model.open[1]!.activity.inProgress.store(1, ordering: .relaxed)
    model.stamp(model.open[3]!)
    #expect(model.connect() == (true, 2))
    // Now 1 busy, 3 and 4 idle: 3 is older.
    #expect(model.connect() == (true, 3))
    for key in model.open.keys { model.open[key]!.activity.inProgress.store(1, ordering: .relaxed) }
    #expect(model.connect() == (false, nil))
    #expect(model.table.count == 3)
  }

  /// Random opens, closes, request starts and ends: every eviction is the full scan's
  /// choice, and a flood at the cap scans once per batch of candidates, not per connection.
  @Test("random operations: always the full scan's choice, with few scans", arguments: 0..<8)
  func differential(seed: UInt64) {
    var random = PropertyRandom(seed: seed)
    var model = Model(limit: 20)
    var evictions = 0
    for _ in 0..<4000 {
      let roll = random.next() % 10
      let keys = model.open.keys.sorted()
      if roll < 5 || keys.isEmpty {
        let atCap = model.table.count >= 20
        let expected = atCap ? model.expectedVictim() : nil
        let result = model.connect()
        #expect(result.evicted == expected, "seed \(seed)")
        #expect(result.admitted == (!atCap || expected != nil), "seed \(seed)")
        if result.evicted != nil { evictions += 1 }
      } else {
        let key = keys[Int(random.next() % UInt64(keys.count))]
        let connection = model.open[key]!
        switch roll {
        case 5:
          model.table.remove(ObjectIdentifier(connection))
          model.open[key] = nil
        case 6, 7:
          connection.activity.inProgress.add(1, ordering: .relaxed)
        default:
          if !connection.activity.isIdle {
            connection.activity.inProgress.subtract(1, ordering: .relaxed)
            if connection.activity.isIdle { model.stamp(connection) }
          }
        }
      }
      #expect(model.table.count == model.open.count)
    }
    #expect(evictions > 100)

    var flood = Model(limit: 500)
    for _ in 0..<2000 { _ = flood.connect() }
    #expect(flood.table.scans <= 1500 / ConnectionTable<Int>.candidateCount + 2)
  }
}
