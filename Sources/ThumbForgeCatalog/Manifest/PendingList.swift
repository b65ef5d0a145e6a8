package import Foundation
internal import ThumbForgeBasics

/// Imageset folders a run is about to write, recorded first so that a run killed midway
/// still recognises them as its own next time.
package struct PendingList {
  let url: URL

  package func read() -> Set<String> {
    guard let data = try? Data(contentsOf: url),
      let list = try? JSONDecoder().decode([String].self, from: data)
    else {
      return []
    }
    return Set(list)
  }

  /// Adds `folders` to the list (nothing to do, and no file read, when there are none).
  package func write(_ folders: Set<String>) throws {
    guard !folders.isEmpty else { return }
    let merged = read().union(folders)
    try AtomicFile.write(Array(try JSONEncoder().encode(merged.sorted())), to: url.path)
  }

  package var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

  package func clear() {
    try? FileManager.default.removeItem(at: url)
  }

  package init(url: URL) {
    self.url = url
  }
}
