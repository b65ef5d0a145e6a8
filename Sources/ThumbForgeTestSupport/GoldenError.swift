/// Why a golden-image check did not pass. Every case fails the test that throws it.
package enum GoldenError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No reference image is stored yet.
  case missing(reference: String)
  /// Recording mode wrote the reference; the test fails so that a recording is never
  /// mistaken for a pass. Run again without recording to check it.
  case recorded(reference: String)
  /// The image differs from the reference by more than the tolerance; the actual image was
  /// written to `actual` for inspection.
  case mismatch(
    reference: String, comparison: ImageComparison, tolerance: ImageTolerance, actual: String)
  /// The image and the reference could not be compared (for example different sizes).
  case incomparable(reference: String, reason: ImageComparisonError)
  /// Reading or writing the reference failed.
  case io(reference: String, message: String)

  /// What went wrong and what to do about it, with the reference path.
  package var description: String {
    switch self {
    case .missing(let reference):
      "golden image \(reference) does not exist; run with "
        + "\(Golden.recordEnvironmentVariable)=1 to record it, then review and commit it"
    case .recorded(let reference):
      "recorded golden image \(reference); review it and run again without "
        + "\(Golden.recordEnvironmentVariable) (recording never passes)"
    case .mismatch(let reference, let comparison, let tolerance, let actual):
      "image differs from golden \(reference): "
        + tolerance.violations(of: comparison).joined(separator: ", ")
        + " (tolerance \(tolerance); \(comparison)); actual image written to \(actual)"
    case .incomparable(let reference, let reason):
      "cannot compare with golden \(reference): \(reason)"
    case .io(let reference, let message):
      "golden image \(reference): \(message)"
    }
  }
}
