internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering

/// Writes the files one destination beside the catalog has of an imageset (`web:`'s sizes
/// and JSON, `android:`'s drawables) atomically, and removes only the files of that
/// destination the manifest lists.
struct DerivedWriter: Sendable {
  let destination: DerivedFile.Destination
  /// The manifest's folder: the manifest's paths of these files are relative to it.
  let base: URL
  /// The destination's folder from ``base``, with a final `/` (nil: the destination is off,
  /// and the writer only removes what an earlier build wrote).
  let prefix: String?

  /// What such a file's stamp is filed under beside the catalog's files, whose paths are
  /// catalog-relative: its manifest path after this prefix, which no catalog path has.
  static let stampPrefix = "derived:"

  init(_ destination: DerivedFile.Destination, workspace: Workspace) {
    self.init(
      destination, base: workspace.state.folder,
      prefix: Self.prefix(of: destination, in: workspace))
  }

  init(_ destination: DerivedFile.Destination, base: URL, prefix: String?) {
    self.destination = destination
    self.base = base
    self.prefix = prefix
  }

  /// `destination`'s folder relative to the workspace's manifest, with a final `/` (nil: off).
  static func prefix(of destination: DerivedFile.Destination, in workspace: Workspace) -> String? {
    switch destination {
    case .web: workspace.webRelativeToManifest
    case .android: workspace.androidRelativeToManifest
    }
  }

  /// The destination's record in `entry`.
  func recorded(in entry: ManifestImageSet) -> ManifestDerived? {
    destination == .web ? entry.web : entry.android
  }

  /// Writes this destination's files of `files` (and the web JSON); returns their manifest
  /// record (nil when the plan gives the set none) and adds the files' stamps to `stamps`.
  func write(
    set: PlannedImageSet, files: [RenderedFile], placeholder: String?,
    stamps: inout [String: FileStamp]
  ) throws -> ManifestDerived? {
    guard let prefix, !set.derivedFiles(destination).isEmpty else { return nil }
    var records: [ManifestDerivedFile] = []
    for file in files.flatMap(\.derived) where file.file.destination == destination {
      let path = prefix + file.file.path
      let written = try AtomicFile.write(file.bytes, to: base.filePath(path), durable: false)
      stamps[Self.stampPrefix + path] = FileStamp(written, hash: file.hash)
      records.append(
        ManifestDerivedFile(
          path: path, appearance: file.file.appearance == .dark ? "dark" : nil,
          width: file.file.pixelSize.width, height: file.file.pixelSize.height,
          bytes: file.bytes.count, hash: file.hash))
    }
    guard destination == .web, let json = set.webJSON.map({ prefix + $0 }) else {
      return ManifestDerived(files: records)
    }
    let text = WebJSON(name: set.name, files: records, placeholder: placeholder).bytes
    let hash = ContentHash.of(text)
    let written = try AtomicFile.write(text, to: base.filePath(json), durable: false)
    stamps[Self.stampPrefix + json] = FileStamp(written, hash: hash)
    return ManifestDerived(files: records, json: json, jsonHash: hash)
  }

  /// Removes the files `previous` listed that `kept` does not (a width, density or format
  /// dropped).
  func removeDropped(_ previous: ManifestDerived?, keeping kept: ManifestDerived?) {
    let keep = Set(kept?.paths ?? [])
    _ = remove((previous?.paths ?? []).filter { !keep.contains($0) })
  }

  /// Removes every file `listed` lists; returns how many were removed.
  @discardableResult
  func remove(_ listed: ManifestDerived) -> Int { remove(listed.paths) }

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
