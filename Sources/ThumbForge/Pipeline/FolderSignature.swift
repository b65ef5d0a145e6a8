internal import Foundation

/// A cheap fingerprint of an asset folder (paths, sizes, modification times) for `--watch`.
struct FolderSignature: Equatable, Sendable {
  let files: [String: Int64]

  static func of(_ workspace: Workspace) -> FolderSignature {
    let scan = FolderScanner.scan(
      folder: workspace.folder, skipping: workspace.skippedPaths, confined: workspace.confined)
    var files: [String: Int64] = [:]
    for file in scan.files {
      files[file.relativePath] = stamp(modified: file.modified, byteSize: file.byteSize)
    }
    if let config = workspace.configFile, let stat = FileStamp.current(at: config.path) {
      files["\u{0}config"] = stat.modified
    }
    return FolderSignature(files: files)
  }

  /// Whether the file at `relativePath` in `folder` still has the size and modification
  /// time this signature recorded for it (false when it is gone or was never seen).
  func isUnchanged(_ relativePath: String, in folder: URL) -> Bool {
    guard let now = FileStamp.current(at: folder.appendingPathComponent(relativePath).path)
    else { return false }
    return files[relativePath] == Self.stamp(modified: now.modified, byteSize: now.byteSize)
  }

  /// One file's entry: its modification time and size, folded.
  private static func stamp(modified: Int64, byteSize: Int) -> Int64 {
    modified ^ Int64(byteSize)
  }
}
