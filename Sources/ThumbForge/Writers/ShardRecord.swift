internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeConfig

/// `shard.json`: what one shard built and from what, so that `merge` can refuse parts that
/// do not belong together. Written last by the shard: its presence means the shard finished.
struct ShardRecord: Codable, Equatable, Sendable {
  static let currentSchema = 1

  var schema = Self.currentSchema
  var tool = "thumbforge"
  var toolVersion: String
  var libvipsVersion: String
  var index: Int
  var count: Int
  /// SHA-256 of the configuration file (as in the manifest).
  var configHash: String
  /// A digest of the whole folder's plan (every imageset's key and masters' hashes, and the
  /// files that could not be used): equal in every shard of one folder state and config.
  var planDigest: String
  /// Whether the catalog's group folders provide namespaces (their `Contents.json`).
  var providesNamespace: Bool
  /// The catalog folder's name (`Assets.xcassets`).
  var catalogName: String
  /// The configuration's Swift accessors (`swift:`), for `merge` to write as a build does;
  /// nil without them.
  var swift: SwiftSetting? = nil
  /// The destinations beside the catalog the build writes (`web`, `android`), each with its
  /// folder relative to the manifest (`web/`, `../Build/web/`), where `merge` puts their
  /// files (a part holds them in a folder of its own: ``ShardPart/derivedPrefix(_:)``); nil
  /// without any.
  var destinations: [String: String]? = nil
  /// Imageset folders rendered into the part's catalog.
  var written: [String]
  /// Imageset folders the shard answers for that were up to date in the catalog it was
  /// built against (or kept there), and that `merge` takes from the catalog it writes to.
  var carried: [String]

  var shard: String { "\(index)/\(count)" }

  /// Where the accessors go and how they look.
  struct SwiftSetting: Codable, Equatable, Sendable {
    /// The file, relative to the catalog folder (`../Sources/App/Assets.swift`): the
    /// catalog `merge` writes is the one the shards were built against.
    var path: String
    var options: SwiftAccessorOptions
  }
}

extension ShardRecord {
  /// Writes the record (sorted keys, atomically).
  func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    try AtomicFile.write(Array(try encoder.encode(self)) + [UInt8(ascii: "\n")], to: url.path)
  }

  /// Reads a part's record; nil when there is none (the shard did not finish).
  static func read(at url: URL) throws -> ShardRecord? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try JSONDecoder().decode(ShardRecord.self, from: Data(contentsOf: url))
  }
}
