package import Foundation

/// How two paths relate: whether one is inside a folder, and one path relative to another.
package enum FolderPath {
  /// Whether `url` is `folder` or inside it (a path there would be read back as input).
  package static func isInside(_ url: URL, folder: URL) -> Bool {
    var base = folder.standardizedFileURL.path
    if base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    let path = url.standardizedFileURL.path
    return path == base || path.hasPrefix(base + "/")
  }

  /// `url`'s path from `base`, climbing out with `..` where needed (`../App/Assets.xcassets`):
  /// a configuration's `output` that still holds when both folders move together.
  package static func climbingPath(of url: URL, from base: URL) -> String {
    let target = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let from = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let shared = zip(target, from).prefix { $0 == $1 }.count
    let parts = Array(repeating: "..", count: from.count - shared) + target[shared...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }
}
