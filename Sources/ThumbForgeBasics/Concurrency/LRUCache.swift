package import Synchronization

/// A thread-safe map from keys to values capped by the sum of the values' costs (bytes):
/// storing past the cap evicts the least recently used entries, one at a time, in constant
/// time each. `serve`'s in-memory layers (outputs, decoded masters) are both this.
///
/// The entries sit in an array linked by index, so a lookup hashes its key once. The
/// methods are inlinable so that the server module gets them specialised for its value
/// type: unspecialised, each hit looked up generic metadata at run time (a share of a cached
/// answer that callgrind sees: `Scripts/serve-cost.sh`).
package final class LRUCache<Value: Sendable>: Sendable {
  /// The most the entries' costs may add up to.
  package let capacity: Int
  /// The largest cost one entry may have; larger values are not kept.
  package let largestEntry: Int
  @usableFromInline let state = Mutex(State())

  @usableFromInline struct State {
    /// Each key's node in `nodes`.
    @usableFromInline var index: [String: Int] = [:]
    @usableFromInline var nodes: [Node] = []
    /// Nodes of evicted entries, reused before `nodes` grows.
    @usableFromInline var free: [Int] = []
    /// The most recently used node, and the least (`-1`: none).
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1
    @usableFromInline var total = 0

    @usableFromInline init() {}
  }

  @usableFromInline struct Node {
    @usableFromInline var key: String
    /// Nil once the entry is evicted (the node then waits in `free`).
    @usableFromInline var value: Value?
    @usableFromInline var cost: Int
    /// The next more recently used node, and the next less (`-1`: none).
    @usableFromInline var newer = -1
    @usableFromInline var older = -1

    @usableFromInline init(key: String, value: Value, cost: Int) {
      self.key = key
      self.value = value
      self.cost = cost
    }
  }

  package init(capacity: Int, largestEntry: Int? = nil) {
    self.capacity = capacity
    self.largestEntry = min(capacity, largestEntry ?? capacity)
  }

  /// The value of `key`, now the most recently used; nil when absent.
  @inlinable
  package func value(for key: String) -> Value? {
    state.withLock { state in
      guard let node = state.index[key] else { return nil }
      if state.newest != node {
        Self.unlink(node, &state)
        Self.pushNewest(node, &state)
      }
      return state.nodes[node].value
    }
  }

  /// Stores `value` at `cost` under `key` (replacing any value), then evicts the least
  /// recently used entries until the costs fit the capacity.
  @inlinable
  package func store(_ value: Value, cost: Int, for key: String) {
    guard cost <= largestEntry else { return }
    state.withLock { state in
      if let node = state.index[key] {
        Self.unlink(node, &state)
        state.total += cost - state.nodes[node].cost
        state.nodes[node].value = value
        state.nodes[node].cost = cost
        Self.pushNewest(node, &state)
      } else {
        let entry = Node(key: key, value: value, cost: cost)
        let node: Int
        if let reused = state.free.popLast() {
          state.nodes[reused] = entry
          node = reused
        } else {
          state.nodes.append(entry)
          node = state.nodes.count - 1
        }
        state.index[key] = node
        state.total += cost
        Self.pushNewest(node, &state)
      }
      while state.total > capacity, state.oldest >= 0 {
        Self.evict(state.oldest, &state)
      }
    }
  }

  /// The sum of the entries' costs, and their number.
  package var usage: (cost: Int, entries: Int) {
    state.withLock { ($0.total, $0.index.count) }
  }

  @inlinable
  static func evict(_ node: Int, _ state: inout State) {
    unlink(node, &state)
    state.total -= state.nodes[node].cost
    state.index[state.nodes[node].key] = nil
    state.nodes[node].value = nil
    state.nodes[node].key = ""
    state.free.append(node)
  }

  /// Takes `node` out of the recency list (it stays in `nodes` and `index`).
  @inlinable
  static func unlink(_ node: Int, _ state: inout State) {
    let (newer, older) = (state.nodes[node].newer, state.nodes[node].older)
    if newer >= 0 { state.nodes[newer].older = older } else { state.newest = older }
    if older >= 0 { state.nodes[older].newer = newer } else { state.oldest = newer }
  }

  /// Puts `node` at the most recently used end of the recency list.
  @inlinable
  static func pushNewest(_ node: Int, _ state: inout State) {
    state.nodes[node].newer = -1
    state.nodes[node].older = state.newest
    if state.newest >= 0 { state.nodes[state.newest].newer = node }
    state.newest = node
    if state.oldest < 0 { state.oldest = node }
  }
}
