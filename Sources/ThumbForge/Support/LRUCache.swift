internal import Synchronization

/// A thread-safe map from keys to values capped by the sum of the values' costs (bytes):
/// storing past the cap evicts the least recently used entries, one at a time, in constant
/// time each. `serve`'s in-memory layers (outputs, decoded masters) are both this.
package final class LRUCache<Value: Sendable>: Sendable {
  /// The most the entries' costs may add up to.
  package let capacity: Int
  /// The largest cost one entry may have; larger values are not kept.
  package let largestEntry: Int
  private let state = Mutex(State())

  private struct State {
    var entries: [String: Entry] = [:]
    /// The most recently used key, and the least.
    var newest: String?
    var oldest: String?
    var total = 0
  }

  private struct Entry {
    var value: Value
    var cost: Int
    /// The next more recently used key, and the next less.
    var newer: String?
    var older: String?
  }

  package init(capacity: Int, largestEntry: Int? = nil) {
    self.capacity = capacity
    self.largestEntry = min(capacity, largestEntry ?? capacity)
  }

  /// The value of `key`, now the most recently used; nil when absent.
  package func value(for key: String) -> Value? {
    state.withLock { state in
      guard let entry = state.entries[key] else { return nil }
      Self.unlink(key, &state)
      Self.pushNewest(key, entry, &state)
      return entry.value
    }
  }

  /// Stores `value` at `cost` under `key` (replacing any value), then evicts the least
  /// recently used entries until the costs fit the capacity.
  package func store(_ value: Value, cost: Int, for key: String) {
    guard cost <= largestEntry else { return }
    state.withLock { state in
      if let old = state.entries[key] {
        Self.unlink(key, &state)
        state.total -= old.cost
      }
      Self.pushNewest(key, Entry(value: value, cost: cost), &state)
      state.total += cost
      while state.total > capacity, let oldest = state.oldest {
        state.total -= state.entries[oldest]!.cost
        Self.unlink(oldest, &state)
      }
    }
  }

  /// The sum of the entries' costs, and their number.
  package var usage: (cost: Int, entries: Int) {
    state.withLock { ($0.total, $0.entries.count) }
  }

  /// Removes `key` from the recency list and the map.
  private static func unlink(_ key: String, _ state: inout State) {
    guard let entry = state.entries.removeValue(forKey: key) else { return }
    if let newer = entry.newer {
      state.entries[newer]!.older = entry.older
    } else {
      state.newest = entry.older
    }
    if let older = entry.older {
      state.entries[older]!.newer = entry.newer
    } else {
      state.oldest = entry.newer
    }
  }

  /// Adds `entry` under `key` as the most recently used.
  private static func pushNewest(_ key: String, _ entry: Entry, _ state: inout State) {
    var entry = entry
    entry.newer = nil
    entry.older = state.newest
    if let newest = state.newest { state.entries[newest]!.newer = key }
    state.newest = key
    if state.oldest == nil { state.oldest = key }
    state.entries[key] = entry
  }
}
