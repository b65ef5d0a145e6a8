internal import Synchronization

/// One connection's requests, updated by its own handler without a shared lock.
final class ConnectionActivity: Sendable {
  /// Requests read and not yet answered.
  let inProgress = Atomic<Int>(0)
  /// When the connection last became idle (or was opened), by ``OpenConnections``' clock.
  let idleSince = Atomic<UInt64>(0)

  var isIdle: Bool { inProgress.load(ordering: .relaxed) == 0 }
}

/// The open connections by identity, and which one to close at the cap: the one idle
/// longest (no request in progress, by the moment it became idle).
///
/// Finding it does not scan every connection on every admission: a scan keeps the
/// ``candidateCount`` oldest idle connections, in order, and later admissions take from
/// them. A kept candidate that has since been closed, or started a request, or became idle
/// again (a later moment) is skipped. The ones left are still the oldest idle connections,
/// since idle moments only grow: any connection not kept became idle after them. So a flood
/// of connections at the cap costs one scan per ``candidateCount`` evictions, not one per
/// connection, with the same choice as a full scan.
struct ConnectionTable<Payload> {
  /// One connection: what its owner keeps, and its requests.
  struct Entry {
    let payload: Payload
    let activity: ConnectionActivity
  }

  /// Candidates kept by one scan.
  static var candidateCount: Int { 64 }

  let limit: Int
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// The oldest idle connections at the last scan, oldest last (taken with `popLast`).
  private var candidates: [(key: ObjectIdentifier, idleSince: UInt64)] = []
  /// Full scans made (for the tests).
  private(set) var scans = 0

  init(limit: Int) { self.limit = limit }

  var count: Int { entries.count }

  /// Counts `key` in. At the cap, removes and returns the payload of the connection idle
  /// longest; nil in `admitted` when every connection is busy (the new one is not counted).
  mutating func admit(_ key: ObjectIdentifier, _ entry: Entry) -> (
    admitted: Bool, evicted: Payload?
  ) {
    var evicted: Payload?
    if entries.count >= limit {
      guard let oldest = oldestIdle() else { return (false, nil) }
      evicted = entries.removeValue(forKey: oldest)?.payload
    }
    entries[key] = entry
    return (true, evicted)
  }

  mutating func remove(_ key: ObjectIdentifier) {
    entries.removeValue(forKey: key)
  }

  private mutating func oldestIdle() -> ObjectIdentifier? {
    if let kept = takeCandidate() { return kept }
    scan()
    return takeCandidate()
  }

  private mutating func takeCandidate() -> ObjectIdentifier? {
    while let candidate = candidates.popLast() {
      guard let activity = entries[candidate.key]?.activity, activity.isIdle,
        activity.idleSince.load(ordering: .relaxed) == candidate.idleSince
      else { continue }
      return candidate.key
    }
    return nil
  }

  private mutating func scan() {
    scans += 1
    var idle: [(key: ObjectIdentifier, idleSince: UInt64)] = []
    idle.reserveCapacity(entries.count)
    for (key, entry) in entries where entry.activity.isIdle {
      idle.append((key, entry.activity.idleSince.load(ordering: .relaxed)))
    }
    idle.sort { $0.idleSince < $1.idleSince }
    candidates = idle.prefix(Self.candidateCount).reversed()
  }
}
