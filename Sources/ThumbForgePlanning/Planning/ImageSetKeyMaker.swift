internal import ThumbForgeBasics

/// Derives the cache keys of a source's imagesets from the whole planned values — the resolved
/// recipes, every planned output, the exact `Contents.json` texts and the notes the manifest
/// records — so that any change which could alter a written byte changes the key. Nothing is
/// listed by hand: a new field of ``Recipe`` or ``PlannedOutput`` is part of the key by being
/// encoded.
///
/// Every imageset of one source shares what the source's plan as a whole decides: the master
/// is decoded once, shrunk on load for the largest output of the job, and small outputs may
/// come from a half-size copy made in the same pass or from a larger output of the job. So
/// the key of each imageset covers the whole job: a change to one recipe re-renders every
/// imageset of the sources it applies to, and an incremental build gives the same bytes as a
/// fresh one.
package final class ImageSetKeyMaker {
  /// The tool and library versions and settings that apply to every imageset.
  let header: String
  private let encoder = CanonicalEncoder()

  package init(header: String) {
    self.header = header
  }

  /// The imagesets of one job with their keys: each is the hash of the job's whole plan
  /// (their own keys left out) followed by the imageset's folder.
  package func keyed(_ sets: [PlannedImageSet]) -> [PlannedImageSet] {
    var sets = sets
    for index in sets.indices where !sets[index].key.isEmpty { sets[index].key = "" }
    encoder.reset()
    encoder.append(header)
    encoder.append(sets)
    // The encoding is self-delimiting, so the folder name that follows cannot blur into it.
    let keys = ContentHash.of(encoder.bytes, each: sets.map(\.folder))
    for index in sets.indices { sets[index].key = keys[index] }
    return sets
  }
}
