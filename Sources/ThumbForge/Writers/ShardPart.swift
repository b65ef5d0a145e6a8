internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// The folder a shard writes and `merge` reads: a partial catalog holding the imagesets the
/// shard rendered, a partial manifest of every imageset the shard answers for, and
/// `shard.json` (see ``ShardRecord``), written last: a part without it did not finish.
struct ShardPart: Sendable {
  let folder: URL
  /// The catalog folder's name (`Assets.xcassets`), the same as the merged catalog's.
  let catalogName: String

  var catalog: URL { folder.appendingPathComponent(catalogName, isDirectory: true) }
  /// The part's manifest, record, pending list and marker (see ``StateFiles``).
  var state: StateFiles { StateFiles(folder: folder) }
  var manifest: URL { state.manifest }
  var record: URL { state.shardRecord }
  var pending: URL { state.pendingList }
  /// Marks the folder as a part, so that a re-run may empty it and nothing else is emptied.
  var marker: URL { state.partMarker }

  /// Where a part keeps `destination`'s files, relative to its folder, with a final `/`
  /// (`web/`, `android/`): its manifest's paths of them start so, and `merge` moves them to
  /// the destination's folder.
  static func derivedPrefix(_ destination: DerivedFile.Destination) -> String {
    destination.rawValue + "/"
  }

  /// Whether `path`, from a part's manifest, stays inside the folder it is relative to (no
  /// `..` step, not absolute): `merge` copies nothing from elsewhere, nor to elsewhere.
  static func staysInside(_ path: String) -> Bool {
    !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
  }

  /// The part folder of `shard`: the one given, or `shards/I-of-N` beside the manifest.
  /// Refused inside the asset folder, where a build would read it back as masters.
  static func resolve(
    _ shard: Shard, explicit: URL?, workspace: Workspace
  ) throws(ConfigError) -> ShardPart {
    let folder =
      (explicit?.standardizedFileURL
      ?? workspace.state.shardsFolder.appendingPathComponent(shard.folderName))
      .standardizedFileURL
    if FolderPath.isInside(folder, folder: workspace.folder) {
      throw ConfigError(
        file: "--part", line: nil, key: "",
        message:
          "'\(folder.path)' is inside the asset folder and would be read back as input; choose another folder with --part"
      )
    }
    return ShardPart(folder: folder, catalogName: workspace.catalog.lastPathComponent)
  }

  /// Empties the part folder for a new run (a killed run's files included), creating it if
  /// needed; refuses a folder that holds anything but an earlier part.
  func prepare() throws(ConfigError) {
    let manager = FileManager.default
    let items = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
    if !items.isEmpty && !manager.fileExists(atPath: marker.path) {
      throw ConfigError(
        file: folder.path, line: nil, key: "",
        message:
          "exists and is not a shard's part folder (no \(StateFiles.partMarkerName)); not overwritten: choose an empty or new folder with --part"
      )
    }
    do {
      // The record first: a run killed while emptying must not leave a part that looks done.
      let record = StateFiles.shardRecordName
      for item in [record] + items.filter({ $0 != record && $0 != StateFiles.partMarkerName }) {
        let path = folder.appendingPathComponent(item).path
        if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
      }
      try manager.createDirectory(at: folder, withIntermediateDirectories: true)
      if !manager.fileExists(atPath: marker.path) {
        try AtomicFile.write(Array("thumbforge shard part\n".utf8), to: marker.path)
      }
    } catch {
      throw ConfigError(
        file: folder.path, line: nil, key: "",
        message: "cannot prepare the part folder: \(error.localizedDescription)")
    }
  }
}
