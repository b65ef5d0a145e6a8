import Foundation
import Testing

/// `Scripts/bench/ab-switches.patch` (the switches `Scripts/bench/mechanisms.py` measures each
/// speed mechanism with) applies on these sources: a change to the code it patches must
/// bring the patch along, so the next measurement needs no archaeology.
@Suite("A/B switches patch")
struct ABSwitchesPatchTests {
  @Test("Scripts/bench/ab-switches.patch applies on the sources as they are")
  func patchApplies() async throws {
    let root = ExamplesTests.repository
    let result = try await ExamplesTests.shell(
      "git apply --check Scripts/bench/ab-switches.patch 2>&1",
      in: root, environment: [:])
    #expect(
      result.status == 0,
      "the patch no longer applies: rebase it on the change (Scripts/README.md)\n\(result.output)")
  }
}
