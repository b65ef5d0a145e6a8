internal import Foundation

/// Maps a glob over asset-folder-relative paths to recipe names.
public struct Rule: Sendable, Equatable {
  public var match: String
  public var recipes: [String]

  public init(match: String, recipes: [String]) {
    self.match = match
    self.recipes = recipes
  }
}
