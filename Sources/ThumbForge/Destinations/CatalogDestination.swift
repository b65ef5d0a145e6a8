internal import Foundation
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import ThumbForgeRendering

/// A build's destination: the catalog the configuration names, with the manifest, the
/// caches and the Swift accessors beside it (see ``BuildEngine/commit(_:rendered:previous:state:found:writer:)``).
struct CatalogDestination: BuildDestination {
  let workspace: Workspace
  let writer: CatalogWriter

  init(workspace: Workspace) {
    self.workspace = workspace
    writer = CatalogWriter(
      catalog: workspace.catalog, config: workspace.config,
      rootContents: workspace.rootContents,
      derived: DerivedFile.Destination.allCases.map { DerivedWriter($0, workspace: workspace) })
  }

  var state: StateFiles { workspace.state }
  var catalog: URL { workspace.catalog }
  var holdsPreviousBuild: Bool { true }

  /// Nothing to prepare: the temporary files of a killed run are swept while the previous
  /// state loads, once the manifest is known to be readable.
  func prepare() throws(ConfigError) {}

  func select(_ folder: PlannedFolder) -> PlannedFolder { folder }

  func write(
    set: PlannedImageSet, source: AssetSource, files: [RenderedFile], previous: ManifestImageSet?
  ) throws -> WrittenImageSet {
    try writer.write(set: set, source: source, files: files, previous: previous)
  }

  func remove(_ orphan: ManifestImageSet) -> Int { writer.remove(orphan) }

  func commit(_ run: FinishedRun) throws -> Manifest? {
    try run.engine.commit(
      run.decision, rendered: run.rendered, previous: run.previous, state: run.state,
      found: run.planned.found, writer: writer)
  }
}
