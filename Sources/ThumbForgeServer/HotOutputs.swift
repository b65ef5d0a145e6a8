internal import Synchronization
internal import ThumbForge

/// The most recently used outputs in memory, with their ETags, by content address: a
/// repeated request is answered without reading the cache file or hashing its bytes.
/// Capped in bytes; when full, the least recently used quarter is dropped at once.
final class HotOutputs: Sendable {
  struct Item: Sendable {
    let bytes: [UInt8]
    let etag: String
  }

  private let capacity: Int
  private let state = Mutex(State())

  private struct State {
    var items: [String: (item: Item, lastUse: UInt64)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// The largest output kept in memory (larger ones are sent from the result cache's file).
  static let largestItem = 4 * 1_048_576

  init(capacity: Int) {
    self.capacity = capacity
  }

  func item(for key: String) -> Item? {
    state.withLock { state in
      guard let found = state.items[key] else { return nil }
      state.clock += 1
      state.items[key]!.lastUse = state.clock
      return found.item
    }
  }

  func store(_ item: Item, for key: String) {
    guard item.bytes.count <= min(capacity / 4, Self.largestItem) else { return }
    state.withLock { state in
      state.clock += 1
      if let old = state.items[key] { state.bytes -= old.item.bytes.count }
      state.items[key] = (item, state.clock)
      state.bytes += item.bytes.count
      guard state.bytes > capacity else { return }
      let oldest = state.items.sorted { $0.value.lastUse < $1.value.lastUse }
      for (key, value) in oldest.prefix(max(1, oldest.count / 4)) {
        state.items[key] = nil
        state.bytes -= value.item.bytes.count
      }
    }
  }
}
