/// All imagesets of one asset: rendered together so each master is decoded once.
package struct Job: Hashable, Sendable {
  package var source: AssetSource
  package var imageSets: [PlannedImageSet]

  package init(source: AssetSource, imageSets: [PlannedImageSet]) {
    self.source = source
    self.imageSets = imageSets
  }
}
