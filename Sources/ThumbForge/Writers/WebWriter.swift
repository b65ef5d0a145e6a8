internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering

/// Writes an imageset's web sizes (`web:`) and their JSON into the web folder atomically, and
/// removes only the web files the manifest lists.
struct WebWriter: Sendable {
  /// The manifest's folder: the manifest's web paths are relative to it.
  let base: URL
  /// The web folder's path from ``base``, with a final `/` (nil: `web:` is off, and the
  /// writer only removes what an earlier build wrote).
  let prefix: String?

  /// What a web file's stamp is filed under beside the catalog's files, whose paths are
  /// catalog-relative: its manifest path after this prefix, which no catalog path has.
  static let stampPrefix = "web:"

  init(workspace: Workspace) {
    base = workspace.state.folder
    prefix = workspace.webRelativeToManifest
  }

  /// Writes the web files of `files` and the imageset's JSON; returns their manifest record
  /// (nil when the plan gives the set none) and adds the files' stamps to `stamps`.
  func write(
    set: PlannedImageSet, files: [RenderedFile], placeholder: String?,
    stamps: inout [String: FileStamp]
  ) throws -> ManifestWeb? {
    guard let prefix, let json = set.webJSON.map({ prefix + $0 }) else { return nil }
    var records: [ManifestWebFile] = []
    for file in files.flatMap(\.web) {
      let path = prefix + file.candidate.path
      let written = try AtomicFile.write(file.bytes, to: base.filePath(path), durable: false)
      stamps[Self.stampPrefix + path] = FileStamp(written, hash: file.hash)
      records.append(
        ManifestWebFile(
          path: path, appearance: file.candidate.appearance == .dark ? "dark" : nil,
          width: file.candidate.pixelSize.width, height: file.candidate.pixelSize.height,
          bytes: file.bytes.count, hash: file.hash))
    }
    let text = WebJSON(name: set.name, files: records, placeholder: placeholder).bytes
    let hash = ContentHash.of(text)
    let written = try AtomicFile.write(text, to: base.filePath(json), durable: false)
    stamps[Self.stampPrefix + json] = FileStamp(written, hash: hash)
    return ManifestWeb(json: json, jsonHash: hash, files: records)
  }

  /// Removes the files `previous` listed that `kept` does not (a width or format dropped).
  func removeDropped(_ previous: ManifestWeb?, keeping kept: ManifestWeb?) {
    let keep = Set(kept?.paths ?? [])
    _ = remove((previous?.paths ?? []).filter { !keep.contains($0) })
  }

  /// Removes every file `web` lists; returns how many were removed.
  @discardableResult
  func remove(_ web: ManifestWeb) -> Int { remove(web.paths) }

  /// Removes `paths` (relative to ``base``), then the folders they leave empty (never one
  /// reached by `..`, nor the manifest's).
  private func remove(_ paths: [String]) -> Int {
    var removed = 0
    var folders = Set<String>()
    for path in paths {
      if (try? FileManager.default.removeItem(atPath: base.filePath(path))) != nil {
        removed += 1
      }
      var parent = (path as NSString).deletingLastPathComponent
      while !parent.isEmpty && parent != ".." && !parent.hasSuffix("/..") {
        folders.insert(parent)
        parent = (parent as NSString).deletingLastPathComponent
      }
    }
    // Deepest first, so a group empties before its parent is looked at.
    for relative in folders.sorted(by: { $0.count > $1.count }) {
      let path = base.filePath(relative)
      if (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
    return removed
  }
}
