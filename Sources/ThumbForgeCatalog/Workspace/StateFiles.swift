package import Foundation

/// Every file ThumbForge keeps to remember a run, named in this one place: the manifest, its
/// line-format cache, the probe cache and the pending list of a run in progress, all in the
/// manifest's folder; and, in a shard's part folder, the part's record and marker.
///
/// A build, a shard, `merge`, `serve` and the state-file fuzzer find them here; nothing else
/// spells their names.
package struct StateFiles: Sendable, Hashable {
  /// The manifest (`manifest.json` unless the configuration names another file).
  package let manifest: URL

  /// The manifest's default name.
  static let manifestName = "manifest.json"

  /// The state files of `manifest`, which sit beside it.
  package init(manifest: URL) {
    self.manifest = manifest
  }

  /// The state files of a folder holding a manifest of the default name (a catalog's
  /// parent folder, a shard's part folder).
  package init(folder: URL) {
    self.init(manifest: folder.appendingPathComponent(Self.manifestName))
  }

  /// The folder the state files sit in: the manifest's.
  package var folder: URL { manifest.deletingLastPathComponent() }

  /// The probe cache: file facts reused while a file's size and modification time match.
  package var probeCache: URL { folder.appendingPathComponent(".thumbforge-probe-cache") }

  /// The manifest's line-format copy (see `ManifestCache`).
  package var manifestCache: URL { folder.appendingPathComponent(".thumbforge-manifest-cache") }

  /// Where 0.3.0 kept the probe cache, under a name that said JSON for a file of
  /// tab-separated lines; a build (not a check) deletes it.
  package var legacyProbeCache: URL { folder.appendingPathComponent(".thumbforge-cache.json") }

  /// The folders a run is writing (see `PendingList`): present only while a run writes, or
  /// after one was killed.
  package var pendingList: URL { folder.appendingPathComponent(".thumbforge-pending.json") }

  /// A shard part's record (see `ShardRecord`), written last: a part without it did not
  /// finish.
  package var shardRecord: URL { folder.appendingPathComponent(Self.shardRecordName) }

  /// The shard record's name.
  package static let shardRecordName = "shard.json"

  /// Marks a folder as a shard's part, so that a re-run may empty it and nothing else is
  /// emptied.
  package var partMarker: URL { folder.appendingPathComponent(Self.partMarkerName) }

  /// The part marker's name.
  package static let partMarkerName = ".thumbforge-part"

  /// The folder, beside the manifest, that holds shards' part folders unless `--part` names
  /// another (`shards/2-of-4`).
  package var shardsFolder: URL { folder.appendingPathComponent("shards", isDirectory: true) }

  /// The state files that discovery must not read as masters, should they sit in the asset
  /// folder (the pending list is hidden and JSON, never a master).
  var unreadable: [URL] { [manifest, probeCache, manifestCache, legacyProbeCache] }
}
