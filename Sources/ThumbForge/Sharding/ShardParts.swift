internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning

/// The parts given to `merge`, read and checked to belong together: one finished part per
/// shard of one build (same tool and libvips versions, configuration and folder state), none
/// missing, none twice, no imageset in two parts.
struct ShardParts: Sendable {
  struct Part: Sendable {
    var location: ShardPart
    var record: ShardRecord
    var manifest: Manifest

    /// `parts/2-of-4 (shard 2/4)`, for messages.
    var name: String { "\(location.folder.path) (shard \(record.shard))" }
  }

  var parts: [Part]

  /// Reads and checks the parts; every refusal names the shard and says what to do.
  static func load(_ folders: [URL]) throws(ShardError) -> ShardParts {
    guard !folders.isEmpty else { throw ShardError("no parts given: merge PART…") }
    var parts: [Part] = []
    for folder in folders { parts.append(try read(folder.standardizedFileURL)) }
    let merged = ShardParts(parts: parts)
    try merged.checkSameBuild()
    try merged.checkEveryShardOnce()
    try merged.checkDisjoint()
    return merged
  }

  var first: Part { parts[0] }

  private static func read(_ folder: URL) throws(ShardError) -> Part {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else { throw ShardError("\(folder.path): no such part folder") }
    let probe = ShardPart(folder: folder, catalogName: "")
    let record: ShardRecord?
    do { record = try ShardRecord.read(at: probe.record) } catch {
      throw ShardError(
        "\(probe.record.path): not a shard record ThumbForge can read; run the shard again")
    }
    guard let record else {
      throw ShardError(
        "\(folder.path): not a finished shard part (no shard.json): the shard was stopped or is still running; run it again"
      )
    }
    guard record.tool == "thumbforge", record.schema == ShardRecord.currentSchema else {
      throw ShardError(
        "\(probe.record.path): schema \(record.schema) of \(record.tool), this merge reads schema \(ShardRecord.currentSchema)"
      )
    }
    let location = ShardPart(folder: folder, catalogName: record.catalogName)
    let manifest: Manifest?
    do { manifest = try ManifestStore.read(at: location.manifest) } catch {
      throw ShardError("\(location.manifest.path): damaged; run shard \(record.shard) again")
    }
    guard let manifest else {
      throw ShardError(
        "\(folder.path) (shard \(record.shard)): shard.json without manifest.json; run the shard again"
      )
    }
    return Part(location: location, record: record, manifest: manifest)
  }

  /// Same tool version (this one), shard count, libvips, configuration and folder state.
  private func checkSameBuild() throws(ShardError) {
    for part in parts {
      let record = part.record
      if record.toolVersion != ToolVersion.current {
        throw ShardError(
          "\(part.name) was built by thumbforge \(record.toolVersion), this is \(ToolVersion.current): build every shard and merge with one version"
        )
      }
      let reference = first.record
      if record.count != reference.count {
        throw ShardError(
          "\(part.name) is one of \(record.count) shards, \(first.name) one of \(reference.count): build every shard with the same N"
        )
      }
      if record.libvipsVersion != reference.libvipsVersion {
        throw ShardError(
          "\(part.name) was built with libvips \(record.libvipsVersion), \(first.name) with \(reference.libvipsVersion): build every shard with the same libvips"
        )
      }
      if record.configHash != reference.configHash || record.catalogName != reference.catalogName
        || record.providesNamespace != reference.providesNamespace
        || record.swift != reference.swift || record.destinations != reference.destinations
      {
        throw ShardError(
          "\(part.name) was built from a different configuration than \(first.name): build every shard from the same thumbforge.yml"
        )
      }
      if record.planDigest != reference.planDigest {
        throw ShardError(
          "\(part.name) saw a different asset folder than \(first.name) (other masters or other files that failed): build every shard from the same commit"
        )
      }
    }
  }

  /// Each shard 1…N exactly once.
  private func checkEveryShardOnce() throws(ShardError) {
    let count = first.record.count
    let byIndex = Dictionary(grouping: parts, by: \.record.index)
    for index in byIndex.keys.sorted() where byIndex[index]!.count > 1 {
      let folders = byIndex[index]!.map(\.location.folder.path).joined(separator: " and ")
      throw ShardError("shard \(index)/\(count) is given twice: \(folders)")
    }
    let missing = (1...count).filter { byIndex[$0] == nil }
    if !missing.isEmpty {
      let names = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
      let given = byIndex.keys.sorted().map { "\($0)/\(count)" }.joined(separator: ", ")
      throw ShardError(
        "missing shard\(missing.count == 1 ? "" : "s") \(names) (given: \(given)): merge needs every shard of the build"
      )
    }
  }

  /// No imageset in two parts (they would not come from one split).
  private func checkDisjoint() throws(ShardError) {
    var owner: [String: Part] = [:]
    for part in parts {
      for entry in part.manifest.imageSets {
        if let other = owner[entry.folder] {
          throw ShardError(
            "\(other.name) and \(part.name) both hold \(entry.folder): the parts overlap; build every shard again"
          )
        }
        owner[entry.folder] = part
      }
    }
  }
}
