internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning

extension DerivedWriter {
  /// Copies the files (and web JSON) `listed` records in a shard's part to this destination's
  /// folder (`merge`; as hard links where the file system allows), each checked against its
  /// hash; returns the record with the destination's paths in place of the part's.
  func copy(_ listed: ManifestDerived, from part: ShardPart, partName: String) throws
    -> ManifestDerived
  {
    guard let prefix else {
      throw ShardError(
        "\(partName) holds \(destination) files, but its record names no \(destination) folder: run the shard again"
      )
    }
    // In the part's folder of the destination, as `merge` checked before copying anything.
    let partPrefix = ShardPart.derivedPrefix(destination)
    func place(_ path: String, hash: String) throws -> String {
      let placed = prefix + path.dropFirst(partPrefix.count)
      try ShardPart.copy(
        path, in: part.folder, hash: hash, to: base.filePath(placed), partName: partName)
      return placed
    }
    var copied = listed
    for index in copied.files.indices {
      copied.files[index].path = try place(listed.files[index].path, hash: listed.files[index].hash)
    }
    if let json = listed.json { copied.json = try place(json, hash: listed.jsonHash ?? "") }
    return copied
  }
}
