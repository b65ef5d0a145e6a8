package import Foundation

/// Group folders of a catalog: the paths a set of groups spans, and what ThumbForge reads
/// of a group `Contents.json` someone else wrote.
package enum GroupFolders {
  /// Every group of `groups` and every group above it, as catalog-relative paths
  /// (`["Flags", "EU"]` → `Flags`, `Flags/EU`); the root (an empty group) is none.
  package static func paths(of groups: some Sequence<[String]>) -> Set<String> {
    var paths = Set<String>()
    for group in groups {
      for depth in group.indices { paths.insert(group.prefix(depth + 1).joined(separator: "/")) }
    }
    return paths
  }

  /// Whether the group `Contents.json` at `url` sets `provides-namespace` (false when it
  /// is missing or not a JSON object).
  package static func providesNamespace(contentsAt url: URL) -> Bool {
    guard let data = FileManager.default.contents(atPath: url.path),
      let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let properties = json["properties"] as? [String: Any]
    else { return false }
    return properties["provides-namespace"] as? Bool == true
  }
}
