/// One thing that went wrong with one file, in the user's words.
public struct Problem: Error, Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
  /// The file or folder concerned (relative to the asset folder when inside it).
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }

  public static func < (lhs: Problem, rhs: Problem) -> Bool {
    (lhs.path, lhs.reason) < (rhs.path, rhs.reason)
  }
}
