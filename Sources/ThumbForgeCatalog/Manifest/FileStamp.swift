package import ThumbForgeBasics

/// What a state file records of a file on disk: its version's size and modification time
/// (``FileFacts``) and its content hash.
package struct FileStamp: Codable, Sendable, Equatable {
  package var byteSize: Int
  package var modified: Int64
  package var hash: String

  package init(byteSize: Int, modified: Int64, hash: String) {
    self.byteSize = byteSize
    self.modified = modified
    self.hash = hash
  }
}

extension FileStamp {
  /// A stamp of the file version `facts` (read with ``FileFacts/current(at:)``, or returned by
  /// ``AtomicFile/write(_:to:durable:)``), whose content hash is `hash`.
  package init(_ facts: FileFacts, hash: String) {
    self.init(byteSize: facts.size, modified: facts.modified, hash: hash)
  }

  /// Whether the file version `facts` has the size and modification time this stamp
  /// recorded, so that its hash can be trusted without reading the file.
  package func matches(_ facts: FileFacts) -> Bool {
    byteSize == facts.size && modified == facts.modified
  }
}
