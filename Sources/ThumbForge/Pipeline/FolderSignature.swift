internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning

/// A cheap fingerprint of an asset folder (paths, sizes, modification times) for `--watch`.
struct FolderSignature: Equatable, Sendable {
  private(set) var files: [String: Int64]

  /// The key under which the configuration file's stamp is kept (no path starts with NUL).
  static let configKey = "\u{0}config"

  static func of(_ workspace: Workspace) -> FolderSignature {
    var signature = of(
      folder: workspace.folder, skipping: workspace.skippedPaths, confined: workspace.confined)
    if let config = workspace.configFile, let stat = FileStamp.current(at: config.path) {
      signature.add(Self.configKey, modified: stat.modified, byteSize: stat.byteSize)
    }
    return signature
  }

  /// The folder's files, less `skipped` paths (absolute), and each of `configFiles` that
  /// exists (a configuration that does not load has no workspace to say which it is).
  static func of(
    folder: URL, skipping skipped: Set<String>, confined: Bool = false, configFiles: [URL] = []
  ) -> FolderSignature {
    let scan = FolderScanner.scan(folder: folder, skipping: skipped, confined: confined)
    var signature = FolderSignature(files: [:])
    for file in scan.files {
      signature.add(file.relativePath, modified: file.modified, byteSize: file.byteSize)
    }
    for config in configFiles {
      guard let stat = FileStamp.current(at: config.path) else { continue }
      signature.add(
        Self.configKey + config.lastPathComponent, modified: stat.modified, byteSize: stat.byteSize)
    }
    return signature
  }

  private mutating func add(_ key: String, modified: Int64, byteSize: Int) {
    files[key] = Self.stamp(modified: modified, byteSize: byteSize)
  }

  /// The paths added, removed or changed since `earlier` (a configuration file by its
  /// name), sorted.
  func changes(since earlier: FolderSignature) -> [String] {
    Set(
      Set(files.keys).union(earlier.files.keys).filter { files[$0] != earlier.files[$0] }
        .map { key in
          key.hasPrefix(Self.configKey) ? String(key.dropFirst(Self.configKey.count)) : key
        }
    ).sorted()
  }

  /// Whether the file at `relativePath` in `folder` still has the size and modification
  /// time this signature recorded for it (false when it is gone or was never seen).
  func isUnchanged(_ relativePath: String, in folder: URL) -> Bool {
    guard let now = FileStamp.current(at: folder.filePath(relativePath))
    else { return false }
    return files[relativePath] == Self.stamp(modified: now.modified, byteSize: now.byteSize)
  }

  /// One file's entry: its modification time and size, folded.
  private static func stamp(modified: Int64, byteSize: Int) -> Int64 {
    modified ^ Int64(byteSize)
  }
}
