internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning

extension CatalogWriter {
  /// Copies one imageset a shard rendered from its part (`merge`; as hard links where the
  /// file system allows), checking each file against the hash its manifest records; returns
  /// its entry with the paths of its files beside the catalog where they now are. Like
  /// ``write(set:source:files:previous:)``, files the previous version listed but this one
  /// does not are removed.
  func copy(
    _ entry: ManifestImageSet, from part: ShardPart, previous: ManifestImageSet?, partName: String
  ) throws -> ManifestImageSet {
    let files =
      entry.outputs.map { ($0.path, $0.hash) } + [
        (entry.folder + "/Contents.json", entry.contentsHash)
      ]
    for (path, hash) in files {
      try ShardPart.copy(
        path, in: part.catalog, hash: hash, to: catalog.appendingPathComponent(path).path,
        partName: partName)
    }
    removeDropped(previous, keeping: Set(entry.outputs.map(\.path)))
    var copied = entry
    for writer in derived {
      let placed = try writer.recorded(in: entry).map {
        try writer.copy($0, from: part, partName: partName)
      }
      if writer.destination == .web { copied.web = placed } else { copied.android = placed }
      writer.removeDropped(previous.flatMap(writer.recorded(in:)), keeping: placed)
    }
    return copied
  }
}
