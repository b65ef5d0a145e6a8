internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgePlanning

extension ShardPart {
  /// Copies the part's file at `path` (relative to `folder`, one of the part's) to `target`
  /// (`merge`; as a hard link where the file system allows), once its bytes match `hash`,
  /// the hash the part's manifest records; a mismatch is a damaged part.
  static func copy(
    _ path: String, in folder: URL, hash: String, to target: String, partName: String
  ) throws {
    let source = folder.appendingPathComponent(path)
    let bytes = try Data(contentsOf: source)
    guard ContentHash.of(bytes) == hash else {
      throw ShardError(
        "\(partName): \(path) does not match the hash in its manifest: the part is damaged; run the shard again"
      )
    }
    if !AtomicFile.hardLink(source.path, to: target) {
      try AtomicFile.write(bytes, to: target, durable: false)
    }
  }
}
