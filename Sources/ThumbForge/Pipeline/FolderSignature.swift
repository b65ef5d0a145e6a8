internal import Foundation

/// A cheap fingerprint of an asset folder (paths, sizes, modification times) for `--watch`.
struct FolderSignature: Equatable, Sendable {
  let files: [String: Int64]

  static func of(_ workspace: Workspace) -> FolderSignature {
    let scan = FolderScanner.scan(
      folder: workspace.folder, skipping: workspace.skippedPaths, confined: workspace.confined)
    var files: [String: Int64] = [:]
    for file in scan.files { files[file.relativePath] = file.modified ^ Int64(file.byteSize) }
    if let config = workspace.configFile, let stat = FileStamp.current(at: config.path) {
      files["\u{0}config"] = stat.modified
    }
    return FolderSignature(files: files)
  }
}
