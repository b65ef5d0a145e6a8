internal import Foundation

/// How two paths relate: whether one is inside a folder, and one path relative to another.
enum FolderPath {
  /// Whether `url` is `folder` or inside it (a path there would be read back as input).
  static func isInside(_ url: URL, folder: URL) -> Bool {
    var base = folder.standardizedFileURL.path
    if base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    let path = url.standardizedFileURL.path
    return path == base || path.hasPrefix(base + "/")
  }

  /// `url`'s path relative to `base` when inside it, else its absolute path (the manifest's
  /// `catalog` field).
  static func relativePath(of url: URL, from base: URL) -> String {
    let base = base.standardizedFileURL.path
    let path = url.standardizedFileURL.path
    if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
  }
}
