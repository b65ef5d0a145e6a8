/// How far two images may differ and still count as matching.
///
/// Differences are on the 0–255 scale of ``ImageComparison``; the hash distance is out of 64.
package struct ImageTolerance: Sendable, Equatable, CustomStringConvertible {
  /// Largest allowed mean absolute difference per sample.
  package var meanDifference: Double
  /// Largest allowed absolute difference of any one sample.
  package var maxDifference: Double
  /// Largest allowed perceptual-hash distance.
  package var hashDistance: Int

  /// A tolerance with the given limits; each defaults to 0 (no difference allowed).
  package init(meanDifference: Double = 0, maxDifference: Double = 0, hashDistance: Int = 0) {
    self.meanDifference = meanDifference
    self.maxDifference = maxDifference
    self.hashDistance = hashDistance
  }

  /// Pixel-identical.
  package static let exact = ImageTolerance()

  /// Room for a lossy encode at ordinary quality (JPEG or WebP around 80–90).
  package static let lossy = ImageTolerance(meanDifference: 3, maxDifference: 64, hashDistance: 4)

  /// Room for a different resampler or libvips version: same picture, softer pixels.
  package static let perceptual = ImageTolerance(
    meanDifference: 8, maxDifference: 255, hashDistance: 8)

  /// Whether `comparison` is within every limit.
  package func accepts(_ comparison: ImageComparison) -> Bool {
    violations(of: comparison).isEmpty
  }

  /// A sentence for each limit `comparison` exceeds (empty when it matches).
  package func violations(of comparison: ImageComparison) -> [String] {
    var problems: [String] = []
    if comparison.meanDifference > meanDifference {
      problems.append(
        "mean difference \(rounded(comparison.meanDifference)) > \(rounded(meanDifference))")
    }
    if comparison.maxDifference > maxDifference {
      problems.append(
        "max difference \(rounded(comparison.maxDifference)) > \(rounded(maxDifference))")
    }
    if comparison.hashDistance > hashDistance {
      problems.append("hash distance \(comparison.hashDistance) > \(hashDistance)")
    }
    return problems
  }

  /// The limits in words, for failure messages.
  package var description: String {
    "mean ≤ \(rounded(meanDifference)), max ≤ \(rounded(maxDifference)), "
      + "hash distance ≤ \(hashDistance)"
  }

  private func rounded(_ value: Double) -> String {
    String((value * 100).rounded() / 100)
  }
}
