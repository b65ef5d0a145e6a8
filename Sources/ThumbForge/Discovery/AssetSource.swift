/// An asset: every master that shares one name in one group.
public struct AssetSource: Hashable, Sendable {
  /// Group folders from the asset folder's root.
  public var group: [String]
  public var name: String
  /// Light (any-appearance) masters.
  public var masters: [Master]
  /// Dark-appearance masters (`~dark`).
  public var darkMasters: [Master]
  /// Tinted-appearance masters (`~tinted`), used by app icons only.
  public var tintedMasters: [Master]

  public init(
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
  public var allMasters: [Master] { masters + darkMasters + tintedMasters }

  /// `Group/Sub/Name`.
  public var qualifiedName: String { (group + [name]).joined(separator: "/") }
}

extension AssetSource {
  /// Every master (light and dark) as the manifest records it, sorted by path.
  var manifestSources: [ManifestSource] {
    allMasters.map { ManifestSource(path: $0.path, hash: $0.hash) }
      .sorted { $0.path < $1.path }
  }
}
