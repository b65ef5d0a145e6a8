/// One thing that went wrong with one file, in the user's words.
package struct Problem: Error, Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
  /// The file or folder concerned (relative to the asset folder when inside it).
  package var path: String
  package var reason: String
  /// What sort of problem it is, for callers that answer differently (`serve`'s 413 and
  /// 422); not part of the report's JSON.
  package var kind: Kind = .other

  /// What sort of problem a ``Problem`` is.
  package enum Kind: Sendable, Hashable {
    /// A master over `limit-input-pixels`, or a render over `limit-render-pixels` or
    /// libvips' largest side.
    case tooLarge
    /// A master that cannot be read or decoded.
    case undecodable
    case other
  }

  private enum CodingKeys: String, CodingKey {
    case path, reason
  }

  package init(path: String, reason: String, kind: Kind = .other) {
    self.path = path
    self.reason = reason
    self.kind = kind
  }

  package var description: String { "\(path): \(reason)" }

  package static func < (lhs: Problem, rhs: Problem) -> Bool {
    (lhs.path, lhs.reason) < (rhs.path, rhs.reason)
  }
}
