internal import Foundation

/// Maps a glob over asset-folder-relative paths to recipe names.
public struct Rule: Sendable, Equatable {
  public var match: String
  public var recipes: [String]
  /// Where the subject of the masters it matches is (`focus: [x, y]`): their crops are
  /// placed around it instead of by `gravity`.
  public var focus: FocusPoint?

  public init(match: String, recipes: [String], focus: FocusPoint? = nil) {
    self.match = match
    self.recipes = recipes
    self.focus = focus
  }
}
