/// All imagesets of one asset: rendered together so each master is decoded once.
public struct Job: Hashable, Sendable {
  public var source: AssetSource
  public var imageSets: [PlannedImageSet]
}
