internal import ThumbForgePlanning

/// One way the catalog differs from what a build would make.
package struct StaleItem: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  package enum Kind: String, Sendable, Codable {
    /// Not built yet.
    case missing
    /// Its source, recipe or tool changed.
    case stale
    /// Edited (or removed) by hand since it was written.
    case modified
    /// Its source is gone.
    case orphaned
  }

  package var kind: Kind
  /// Catalog-relative path of the imageset or file.
  package var path: String
  package var detail: String

  package var description: String { "\(kind.rawValue): \(path) (\(detail))" }

  /// The set folder the item is about (its own path, or the set holding the file), or the
  /// path itself when it is in none (a group's `Contents.json`, the manifest): `check`
  /// counts what is stale by these.
  package var setFolder: String {
    if case .inSet(let folder) = SetFolder.place(of: path) { return folder }
    return path
  }

  package static func < (lhs: StaleItem, rhs: StaleItem) -> Bool {
    (lhs.path, lhs.kind.rawValue, lhs.detail) < (rhs.path, rhs.kind.rawValue, rhs.detail)
  }
}
