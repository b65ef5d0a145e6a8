internal import Foundation
package import ThumbForgeBasics

/// Maps a glob over asset-folder-relative paths to recipe names.
package struct Rule: Sendable, Equatable {
  package var match: String
  package var recipes: [String]
  /// Where the subject of the masters it matches is (`focus: [x, y]`): their crops are
  /// placed around it instead of by `gravity`.
  package var focus: FocusPoint?

  package init(match: String, recipes: [String], focus: FocusPoint? = nil) {
    self.match = match
    self.recipes = recipes
    self.focus = focus
  }
}
