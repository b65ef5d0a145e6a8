/// Something planning made with a caveat, or left out: not a failure (the exit code stays 0),
/// but what a person should see without `--verbose` (an 80x enlargement, an empty slot).
public struct BuildWarning: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// What sort of warning it is: the report counts them by kind.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
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
    public func counted(_ count: Int) -> String {
      let one = count == 1
      switch self {
      case .enlargement: return "\(count) output\(one ? "" : "s") enlarged"
      case .keptSmall: return "\(count) output\(one ? "" : "s") kept smaller than the box"
      case .skipped: return "\(count) output\(one ? "" : "s") skipped"
      case .unusedMaster: return "\(count) master\(one ? "" : "s") not used"
      case .other: return "\(count) other warning\(one ? "" : "s")"
      }
    }

    public static func < (lhs: Kind, rhs: Kind) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  public var kind: Kind
  /// The file to look at: the master concerned, relative to the asset folder (the imageset
  /// folder when no master is, e.g. an empty slot).
  public var file: String
  /// The imageset concerned, relative to the catalog.
  public var imageSet: String
  /// What happened, in the user's words (without the imageset's name).
  public var message: String

  public init(kind: Kind, file: String, imageSet: String = "", message: String) {
    self.kind = kind
    self.file = file
    self.imageSet = imageSet
    self.message = message
  }

  /// `Flags/Italy.imageset: @3x: enlarges …`, as the text report prints it.
  public var description: String { imageSet.isEmpty ? message : "\(imageSet): \(message)" }

  public static func < (lhs: BuildWarning, rhs: BuildWarning) -> Bool {
    (lhs.imageSet, lhs.message, lhs.file) < (rhs.imageSet, rhs.message, rhs.file)
  }
}
