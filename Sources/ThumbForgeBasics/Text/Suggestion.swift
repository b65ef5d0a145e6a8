/// "Did you mean …?": the known word closest to a mistyped one, for unknown subcommands,
/// configuration keys and values.
///
/// ```swift
/// Suggestion.closest(to: "buidl", in: ["build", "check"])  // "build"
/// ```
package enum Suggestion {
  /// The word of `candidates` fewest edits (insertions, deletions, substitutions, swaps of
  /// neighbours) away from `word`, when that is few enough to be a typing slip: at most 1
  /// edit for words up to 4 letters, 2 up to 8, 3 beyond. Ties go to the first candidate in
  /// sorted order; case is ignored.
  package static func closest(to word: String, in candidates: some Collection<String>) -> String? {
    let typed = Array(word.lowercased())
    let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
    var best: (distance: Int, word: String)?
    for candidate in candidates.sorted() where candidate.lowercased() != word.lowercased() {
      let distance = editDistance(typed, Array(candidate.lowercased()))
      if distance <= allowed, distance < (best?.distance ?? .max) {
        best = (distance, candidate)
      }
    }
    return best?.word
  }

  /// `" (did you mean 'x'?)"`, or nothing.
  package static func phrase(for word: String, in candidates: some Collection<String>) -> String {
    closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Optimal string alignment distance: Levenshtein with transpositions of neighbours.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
