internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning

/// A folder's version for `--watch` and `serve`'s reloads: each file's ``FileFacts`` (and the
/// configuration's), compared by size and modification time.
struct FolderSignature: Equatable, Sendable {
  private(set) var files: [String: FileFacts]

  /// The key under which the configuration file's facts are kept (no path starts with NUL).
  static let configKey = "\u{0}config"

  static func of(_ workspace: Workspace) -> FolderSignature {
    var signature = of(
      folder: workspace.folder, skipping: workspace.skippedPaths, confined: workspace.confined)
    if let config = workspace.configFile, let facts = FileFacts.current(at: config.path) {
      signature.files[Self.configKey] = facts
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
    for file in scan.files { signature.files[file.relativePath] = file.facts }
    for config in configFiles {
      guard let facts = FileFacts.current(at: config.path) else { continue }
      signature.files[Self.configKey + config.lastPathComponent] = facts
    }
    return signature
  }

  static func == (lhs: FolderSignature, rhs: FolderSignature) -> Bool {
    lhs.files.count == rhs.files.count
      && lhs.files.allSatisfy { path, facts in
        rhs.files[path].map(facts.hasSameSizeAndTime) ?? false
      }
  }

  /// The paths added, removed or changed since `earlier` (a configuration file by its
  /// name), sorted.
  func changes(since earlier: FolderSignature) -> [String] {
    Set(
      Set(files.keys).union(earlier.files.keys).filter { !Self.same(files[$0], earlier.files[$0]) }
        .map { key in
          key.hasPrefix(Self.configKey) ? String(key.dropFirst(Self.configKey.count)) : key
        }
    ).sorted()
  }

  /// Whether the file at `relativePath` in `folder` still has the size and modification
  /// time this signature recorded for it (false when it is gone or was never seen).
  func isUnchanged(_ relativePath: String, in folder: URL) -> Bool {
    Self.same(files[relativePath], FileFacts.current(at: folder.filePath(relativePath)))
      && files[relativePath] != nil
  }

  private static func same(_ a: FileFacts?, _ b: FileFacts?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a.hasSameSizeAndTime(as: b)
    default: false
    }
  }
}
