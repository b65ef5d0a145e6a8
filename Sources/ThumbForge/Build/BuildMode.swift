internal import ThumbForgeBasics

/// What a run does with the stale outputs it finds.
package enum BuildMode: Sendable, Equatable {
  /// Render what is stale, remove what is orphaned.
  case build
  /// Only compare: report what is stale, write nothing.
  case check
  /// Render exactly the assets these names or globs match, whatever their state; leave
  /// everything else (orphans included) as it is.
  case regenerate([String])
  /// Render everything, even what is up to date.
  case force
}

extension BuildMode {
  /// The names or globs of `regenerate` (empty in every other mode).
  var patterns: [String] {
    if case .regenerate(let patterns) = self { return patterns }
    return []
  }

  var isRegenerate: Bool {
    if case .regenerate = self { return true }
    return false
  }
}

extension BuildMode {
  /// Why `pattern` is not a name or glob `regenerate` can use (nil when it is): for the
  /// command line to refuse it as a usage error before anything is read.
  package static func problem(withPattern pattern: String) -> String? {
    do {
      _ = try Glob(pattern)
      return nil
    } catch {
      return error.message
    }
  }
}
