/// Something planning made with a caveat, or left out: not a failure (the exit code stays 0),
/// but what a person should see without `--verbose` (an 80x enlargement, an empty slot).
package struct BuildWarning: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// What sort of warning it is: the report counts them by kind.
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// An output enlarged from a smaller master (`upscale: warn`, or an app icon).
    case enlargement
    /// A master smaller than the box, kept at its own size (`upscale: keep`).
    case keptSmall = "kept-small"
    /// An output left out: it would enlarge (`upscale: never`, a variant slot), or no
    /// master fills it.
    case skipped
    /// A master that is not used (a tinted master outside an app icon, an appearance the
    /// icon layout has no slot for).
    case unusedMaster = "unused-master"
    /// Anything else (an app icon master that is not square).
    case other

    /// How the summary names `count` warnings of this kind.
    package func counted(_ count: Int) -> String {
      let one = count == 1
      switch self {
      case .enlargement: return "\(count) output\(one ? "" : "s") enlarged"
      case .keptSmall: return "\(count) output\(one ? "" : "s") kept smaller than the box"
      case .skipped: return "\(count) output\(one ? "" : "s") skipped"
      case .unusedMaster: return "\(count) master\(one ? "" : "s") not used"
      case .other: return "\(count) other warning\(one ? "" : "s")"
      }
    }

    package static func < (lhs: Kind, rhs: Kind) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  package var kind: Kind
  /// The file to look at: the master concerned, relative to the asset folder (the imageset
  /// folder when no master is, e.g. an empty slot).
  package var file: String
  /// The imageset concerned, relative to the catalog.
  package var imageSet: String
  /// What happened, in the user's words (without the imageset's name).
  package var message: String

  package init(kind: Kind, file: String, imageSet: String = "", message: String) {
    self.kind = kind
    self.file = file
    self.imageSet = imageSet
    self.message = message
  }

  /// `Flags/Italy.imageset: @3x: enlarges …`, as the text report prints it.
  package var description: String { imageSet.isEmpty ? message : "\(imageSet): \(message)" }

  package static func < (lhs: BuildWarning, rhs: BuildWarning) -> Bool {
    (lhs.imageSet, lhs.message, lhs.file) < (rhs.imageSet, rhs.message, rhs.file)
  }
}
