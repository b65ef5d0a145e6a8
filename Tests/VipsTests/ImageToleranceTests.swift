import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct ImageToleranceTests {
  @Test func exactRejectsAnyDifferenceAndNamesIt() throws {
    let a = try VipsImage.solid(width: 4, height: 4, color: [10, 10, 10])
    let b = try VipsImage.solid(width: 4, height: 4, color: [10, 10, 14])
    let comparison = try ImageComparison(a, b)
    #expect(!ImageTolerance.exact.accepts(comparison))
    let problems = ImageTolerance.exact.violations(of: comparison)
    #expect(problems.count == 2)
    #expect(problems.contains { $0.hasPrefix("max difference 4.0") })
    #expect(ImageTolerance(meanDifference: 2, maxDifference: 4).accepts(comparison))
    #expect(!ImageTolerance(meanDifference: 2, maxDifference: 3.5).accepts(comparison))
  }

  @Test func presetsAreOrdered() {
    #expect(ImageTolerance.exact.maxDifference == 0)
    #expect(ImageTolerance.lossy.meanDifference < ImageTolerance.perceptual.meanDifference)
    #expect(ImageTolerance.lossy.hashDistance < ImageTolerance.perceptual.hashDistance)
    #expect("\(ImageTolerance.lossy)".contains("mean ≤ 3.0"))
  }
}
