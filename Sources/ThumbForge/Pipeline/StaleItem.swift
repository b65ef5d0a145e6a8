/// One way the catalog differs from what a build would make.
public struct StaleItem: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  public enum Kind: String, Sendable, Codable {
    /// Not built yet.
    case missing
    /// Its source, recipe or tool changed.
    case stale
    /// Edited (or removed) by hand since it was written.
    case modified
    /// Its source is gone.
    case orphaned
  }

  public var kind: Kind
  /// Catalog-relative path of the imageset or file.
  public var path: String
  public var detail: String

  public var description: String { "\(kind.rawValue): \(path) (\(detail))" }

  public static func < (lhs: StaleItem, rhs: StaleItem) -> Bool {
    (lhs.path, lhs.kind.rawValue, lhs.detail) < (rhs.path, rhs.kind.rawValue, rhs.detail)
  }
}
