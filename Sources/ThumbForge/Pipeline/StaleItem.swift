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

  package static func < (lhs: StaleItem, rhs: StaleItem) -> Bool {
    (lhs.path, lhs.kind.rawValue, lhs.detail) < (rhs.path, rhs.kind.rawValue, rhs.detail)
  }
}
