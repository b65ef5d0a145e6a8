package import Foundation
internal import Synchronization
internal import ThumbForge
internal import ThumbForgeBasics

/// Rendered outputs on disk, by content address, capped in size: the least recently used
/// results are deleted first. Files are written to a temporary name and renamed, so a reader
/// never sees half a file; the index is rebuilt from the folder at start-up (a file's
/// modification time stands for its last use), so the cache survives restarts.
///
/// The cap counts the disk space files take (whole blocks: 4 KB for a 300-byte output on
/// most file systems), not their byte sizes, so the folder's `du` stays within it.
package final class ResultCache: Sendable {
  package let folder: URL
  package let capacity: Int
  private let state: Mutex<State>

  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  private struct Entry {
    /// Disk space taken, in bytes (allocated blocks).
    var size: Int
    var lastUse: UInt64
    /// SHA-256 of the bytes, hex, once known (the ETag).
    var hash: String? = nil
  }

  /// A cached output as a file: its path, byte count and content hash.
  struct File {
    let path: String
    let byteCount: Int
    let hash: String
  }

  /// Opens (creating it when missing) the cache at `folder`, holding at most `capacity` bytes.
  package init(folder: URL, capacity: Int) throws {
    self.folder = folder
    self.capacity = capacity
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var state = State()
    let keys: [URLResourceKey] = [.contentModificationDateKey, .isRegularFileKey]
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: keys)) ?? []
    var found: [(key: String, size: Int, modified: Date)] = []
    for file in files where Self.isKey(file.lastPathComponent) {
      guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
        let size = DiskUsage.of(file.path)
      else { continue }
      found.append(
        (file.lastPathComponent, size.disk, values.contentModificationDate ?? .distantPast))
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
  package func bytes(for key: String) -> [UInt8]? {
    guard let file = file(for: key), let data = FileManager.default.contents(atPath: file.path)
    else { return nil }
    return Array(data)
  }

  /// The file stored for `key`, marking it used; `nil` when absent. Its hash is computed
  /// once (reading the file) when the entry was found at start-up.
  func file(for key: String) -> File? {
    guard Self.isKey(key), let known = state.withLock({ $0.entries[key] }) else { return nil }
    let path = path(of: key)
    guard let size = DiskUsage.of(path),
      let hash = try? known.hash ?? ContentHash.ofFile(at: path)
    else {
      // Deleted behind our back: forget it.
      state.withLock { state in
        if let entry = state.entries.removeValue(forKey: key) { state.bytes -= entry.size }
      }
      return nil
    }
    state.withLock { state in
      state.clock += 1
      state.entries[key]?.lastUse = state.clock
      state.entries[key]?.hash = hash
    }
    // The file's modification time is its last use for the next start's index.
    utimensat(AT_FDCWD, path, nil, 0)
    return File(path: path, byteCount: size.bytes, hash: hash)
  }

  /// Stores `bytes` under `key` (a hex content address), then evicts down to the capacity.
  package func store(_ bytes: [UInt8], for key: String) {
    store(bytes, hash: nil, for: key)
  }

  /// Stores `bytes` (whose SHA-256 is `hash`, when known) under `key`, then evicts.
  func store(_ bytes: [UInt8], hash: String?, for key: String) {
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
    let size = DiskUsage.of(path(of: key))?.disk ?? bytes.count
    state.withLock { state in
      state.clock += 1
      if let old = state.entries[key] { state.bytes -= old.size }
      state.entries[key] = Entry(size: size, lastUse: state.clock, hash: hash)
      state.bytes += size
    }
    evict()
  }

  /// Disk bytes (allocated blocks) and entries held now.
  package var usage: (bytes: Int, entries: Int) {
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
