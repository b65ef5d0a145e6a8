internal import Foundation

/// Derives an imageset's cache key from the whole planned value — the resolved recipe, every
/// planned output, the exact `Contents.json` text and the notes the manifest records — so
/// that any change which could alter a written byte changes the key. Nothing is listed by
/// hand: a new field of ``Recipe`` or ``PlannedOutput`` is part of the key by being encoded.
final class ImageSetKeyMaker {
  /// The tool and library versions and settings that apply to every imageset.
  let header: String
  private let encoder: JSONEncoder

  init(header: String) {
    self.header = header
    encoder = JSONEncoder()
    // Sorted keys make the encoding canonical: equal values, equal bytes.
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
  }

  /// The key of `set`, ignoring its own (stale or empty) ``PlannedImageSet/key``.
  func key(of set: PlannedImageSet) -> String {
    var unkeyed = set
    unkeyed.key = ""
    // Plain values with every number encodable: cannot fail. Were it to, the imageset
    // would be stale on every run rather than ever wrongly up to date.
    guard let encoded = try? encoder.encode(unkeyed) else { return UUID().uuidString }
    return ContentHash.of(Data(header.utf8) + encoded)
  }
}
