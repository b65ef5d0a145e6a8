public import Foundation
internal import Synchronization

/// Rendered outputs on disk, by content address, capped in size: the least recently used
/// results are deleted first. Files are written to a temporary name and renamed, so a reader
/// never sees half a file; the index is rebuilt from the folder at start-up (a file's
/// modification time stands for its last use), so the cache survives restarts.
public final class ResultCache: Sendable {
  public let folder: URL
  public let capacity: Int
  private let state: Mutex<State>

  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  private struct Entry {
    var size: Int
    var lastUse: UInt64
  }

  /// Opens (creating it when missing) the cache at `folder`, holding at most `capacity` bytes.
  public init(folder: URL, capacity: Int) throws {
    self.folder = folder
    self.capacity = capacity
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var state = State()
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: keys)) ?? []
    var found: [(key: String, size: Int, modified: Date)] = []
    for file in files where Self.isKey(file.lastPathComponent) {
      guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
      else { continue }
      found.append(
        (
          file.lastPathComponent, values.fileSize ?? 0,
          values.contentModificationDate ?? .distantPast
        ))
    }
    for item in found.sorted(by: { $0.modified < $1.modified }) {
      state.clock += 1
      state.entries[item.key] = Entry(size: item.size, lastUse: state.clock)
      state.bytes += item.size
    }
    self.state = Mutex(state)
    evict()
  }

  /// The bytes stored for `key`, marking them used; `nil` when absent.
  public func bytes(for key: String) -> [UInt8]? {
    guard Self.isKey(key), state.withLock({ $0.entries[key] != nil }) else { return nil }
    guard let data = FileManager.default.contents(atPath: path(of: key)) else {
      // Deleted behind our back: forget it.
      state.withLock { state in
        if let entry = state.entries.removeValue(forKey: key) { state.bytes -= entry.size }
      }
      return nil
    }
    state.withLock { state in
      state.clock += 1
      state.entries[key]?.lastUse = state.clock
    }
    return Array(data)
  }

  /// Stores `bytes` under `key` (a hex content address), then evicts down to the capacity.
  public func store(_ bytes: [UInt8], for key: String) {
    guard Self.isKey(key), bytes.count <= capacity else { return }
    let temporary = folder.appendingPathComponent(".tmp-\(key)-\(UUID().uuidString)")
    do {
      try Data(bytes).write(to: temporary)
      guard rename(temporary.path, path(of: key)) == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        return
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      return
    }
    state.withLock { state in
      state.clock += 1
      if let old = state.entries[key] { state.bytes -= old.size }
      state.entries[key] = Entry(size: bytes.count, lastUse: state.clock)
      state.bytes += bytes.count
    }
    evict()
  }

  /// Bytes and entries held now.
  public var usage: (bytes: Int, entries: Int) {
    state.withLock { ($0.bytes, $0.entries.count) }
  }

  private func evict() {
    let victims = state.withLock { state -> [String] in
      guard state.bytes > capacity else { return [] }
      var victims: [String] = []
      for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
        guard state.bytes > capacity else { break }
        state.bytes -= entry.size
        state.entries[key] = nil
        victims.append(key)
      }
      return victims
    }
    for key in victims { unlink(path(of: key)) }
  }

  private func path(of key: String) -> String {
    folder.appendingPathComponent(key).path
  }

  /// Keys are lowercase hex (SHA-256): nothing else is ever a file name here.
  static func isKey(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy {
        ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
      }
  }
}
