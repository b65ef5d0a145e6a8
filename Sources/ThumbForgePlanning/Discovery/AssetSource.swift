package import ThumbForgeCatalog

/// An asset: every master that shares one name in one group.
package struct AssetSource: Hashable, Sendable {
  /// Group folders from the asset folder's root.
  package var group: [String]
  package var name: String
  /// Light (any-appearance) masters.
  package var masters: [Master]
  /// Dark-appearance masters (`~dark`).
  package var darkMasters: [Master]
  /// Tinted-appearance masters (`~tinted`), used by app icons only.
  package var tintedMasters: [Master]

  package init(
    group: [String], name: String, masters: [Master], darkMasters: [Master] = [],
    tintedMasters: [Master] = []
  ) {
    self.group = group
    self.name = name
    self.masters = masters
    self.darkMasters = darkMasters
    self.tintedMasters = tintedMasters
  }

  /// Every master: light, dark, then tinted.
  package var allMasters: [Master] { masters + darkMasters + tintedMasters }

  /// `Group/Sub/Name`.
  package var qualifiedName: String { (group + [name]).joined(separator: "/") }
}

extension AssetSource {
  /// Every master (light and dark) as the manifest records it, sorted by path.
  package var manifestSources: [ManifestSource] {
    allMasters.map { ManifestSource(path: $0.path, hash: $0.hash) }
      .sorted { $0.path < $1.path }
  }
}
