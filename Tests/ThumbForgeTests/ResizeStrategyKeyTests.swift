import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// Which image each resize of a job starts from (the half-size copy, a finer level) changes
/// output bytes without changing the plan, so its parameters are part of every imageset's
/// key: catalogs built with other parameters are re-rendered, and `check` says so.
@Suite struct ResizeStrategyKeyTests {
  @Test func everyKeyNamesTheResizeStrategy() throws {
    let planner = Planner(
      config: try ConfigLoader.parse("output: out.xcassets\n", file: "t.yml"),
      vipsVersion: "8.14.1", savableFormats: [.png, .jpeg], unsavableReasons: [:])
    #expect(planner.keyHeader.contains("\nresize=\(MasterImage.strategyKey)\n"))
    #expect(
      MasterImage.strategyKey
        == "half-gap=3 finer-gap=3/2 finer-min=4000000 finer-for=full-size-resizes")
    let plan = planner.plan([PlannerTests.photoSource])
    let keys = plan.jobs.flatMap(\.imageSets).map(\.key)
    #expect(!keys.isEmpty)
    // The same plan under another strategy: every key differs.
    let other = ImageSetKeyMaker(
      header: planner.keyHeader.replacingOccurrences(of: "finer-gap=3/2", with: "finer-gap=2/1")
    ).keyed(plan.jobs.flatMap(\.imageSets))
    #expect(Set(other.map(\.key)).isDisjoint(with: keys))
  }
}
