internal import Foundation
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import Vips

extension BuildEngine {
  /// What `check` finds wrong with the files a build writes besides the catalog's images
  /// and `Contents.json`: the manifest (missing, edited by hand, or one a build would
  /// rewrite) and the generated Swift accessors file (missing or edited). Judged only when
  /// the catalog itself is up to date (`catalogUpToDate`): a stale catalog rewrites both.
  func stateFileDifferences(
    _ decision: Staleness.Outcome, previous: PreviousBuild, catalogUpToDate: Bool
  ) -> [StaleItem] {
    let manifestName = workspace.manifest.lastPathComponent
    guard let recorded = previous.manifest else {
      return [StaleItem(kind: .missing, path: manifestName, detail: "no manifest yet")]
    }
    guard catalogUpToDate else { return [] }
    var items: [StaleItem] = []
    let (entries, _) = Self.entries(decision, rendered: [], previous: previous.imageSets)
    // What a build would write now: nothing to render, so no failures.
    let expected = self.recorded(
      entries, groups: recorded.groups, catalog: workspace.catalogRelativeToManifest,
      failed: nil)
    if expected.differs(from: recorded, unlessSameEntries: true) {
      items.append(
        StaleItem(
          kind: .stale, path: manifestName,
          detail: "the tool, libvips or the configuration file changed since it was written"))
    } else if previous.recorded.staleCacheFacts != nil,
      let bytes = FileManager.default.contents(atPath: workspace.manifest.path),
      let written = try? ManifestStore.encode(recorded), Array(bytes) != written
    {
      // The manifest changed since the last build recorded it: it must still be exactly
      // what a build writes.
      items.append(StaleItem(kind: .modified, path: manifestName, detail: "edited by hand"))
    }
    if let swiftFile = workspace.swiftFile {
      let text = SwiftAccessorGenerator.text(
        for: expected, providesNamespace: workspace.config.providesNamespace,
        options: workspace.config.swiftAccessors, catalog: workspace.catalog)
      let name = swiftFile.lastPathComponent
      switch try? String(contentsOf: swiftFile, encoding: .utf8) {
      case nil:
        items.append(StaleItem(kind: .missing, path: name, detail: "the Swift accessors file"))
      case let present? where present != text:
        items.append(
          StaleItem(kind: .modified, path: name, detail: "differs from the generated accessors"))
      default: break
      }
    }
    return items
  }
}
