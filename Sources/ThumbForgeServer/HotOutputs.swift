internal import ThumbForge
internal import ThumbForgeBasics

/// The most recently used outputs in memory, with their ETags, by content address: a
/// repeated request is answered without reading the cache file or hashing its bytes.
/// Capped in bytes (``LRUCache``); outputs over ``largestItem`` are sent from the result
/// cache's file instead.
final class HotOutputs: Sendable {
  struct Item: Sendable {
    let bytes: [UInt8]
    let etag: String
  }

  /// The largest output kept in memory (larger ones are sent from the result cache's file).
  static let largestItem = 4 * 1_048_576

  private let items: LRUCache<Item>

  init(capacity: Int) {
    items = LRUCache(capacity: capacity, largestEntry: min(capacity / 4, Self.largestItem))
  }

  func item(for key: String) -> Item? {
    items.value(for: key)
  }

  func store(_ item: Item, for key: String) {
    items.store(item, cost: item.bytes.count, for: key)
  }
}
