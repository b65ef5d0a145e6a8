internal import Foundation

/// The suite's two tiers. `Scripts/test.sh` runs the everyday tier; `Scripts/test.sh --slow`
/// (`THUMBFORGE_TEST_TIER=slow`) runs the whole suite: the everyday tier and the slow one,
/// which holds the plugin's cold build and the longest property, shard and kill cases.
/// A plain `swift test` runs the everyday tier.
package enum TestTier: String, Sendable {
  case everyday, slow

  /// The tier this run asked for.
  package static let requested: TestTier =
    ProcessInfo.processInfo.environment["THUMBFORGE_TEST_TIER"].flatMap(TestTier.init) ?? .everyday

  /// Whether the slow tier runs.
  package static var slowRuns: Bool { requested == .slow }

  /// Why a slow test is skipped, for its condition trait.
  package static let slowSkipReason =
    "slow tier: run Scripts/test.sh --slow (THUMBFORGE_TEST_TIER=slow)"
}
