import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct GoldenTests {
  @Test func recordingWritesTheReferenceAndFails() throws {
    try withTemporaryDirectory { directory in
      let image = try Fixtures.gradient(width: 30, height: 20, layout: .rgba)
      let recorder = Golden(directory: directory, isRecording: true)
      let error = try #require(throws: GoldenError.self) {
        try recorder.verify(image, named: "gradient")
      }
      let reference = recorder.referenceURL(named: "gradient")
      #expect(error == .recorded(reference: reference.path))
      #expect(error.description.contains("THUMBFORGE_RECORD_GOLDENS"))
      #expect(FileManager.default.fileExists(atPath: reference.path))

      let checker = Golden(directory: directory, isRecording: false)
      let comparison = try checker.verify(image, named: "gradient")
      #expect(comparison.isIdentical)
    }
  }

  @Test func missingReferenceFailsWithInstructions() throws {
    try withTemporaryDirectory { directory in
      let golden = Golden(directory: directory, isRecording: false)
      let error = try #require(throws: GoldenError.self) {
        try golden.verify(VipsImage.solid(width: 2, height: 2, color: [1, 2, 3]), named: "absent")
      }
      #expect(error == .missing(reference: golden.referenceURL(named: "absent").path))
      #expect(error.description.contains("THUMBFORGE_RECORD_GOLDENS=1"))
    }
  }

  @Test func differencesBeyondToleranceFailAndKeepTheActualImage() throws {
    try withTemporaryDirectory { directory in
      let expected = try VipsImage.solid(width: 8, height: 8, color: [100, 100, 100])
      _ = try? Golden(directory: directory, isRecording: true).verify(expected, named: "grey")

      let close = try VipsImage.solid(width: 8, height: 8, color: [102, 100, 100])
      let tolerant = Golden(
        directory: directory, tolerance: ImageTolerance(meanDifference: 1, maxDifference: 2),
        isRecording: false)
      #expect(try tolerant.verify(close, named: "grey").maxDifference == 2)

      let strict = Golden(directory: directory, tolerance: .exact, isRecording: false)
      let error = try #require(throws: GoldenError.self) {
        try strict.verify(close, named: "grey")
      }
      guard case .mismatch(_, let comparison, _, let actual) = error else {
        Issue.record("expected a mismatch, got \(error)")
        return
      }
      defer { try? FileManager.default.removeItem(atPath: actual) }
      #expect(comparison.maxDifference == 2)
      #expect(error.description.contains("max difference 2.0 > 0.0"))
      #expect(try VipsImage.load(path: actual).pixel(x: 0, y: 0) == [102, 100, 100])
    }
  }

  @Test func sizeChangesAreIncomparable() throws {
    try withTemporaryDirectory { directory in
      _ = try? Golden(directory: directory, isRecording: true)
        .verify(VipsImage.solid(width: 8, height: 8, color: [0, 0, 0]), named: "square")
      let error = try #require(throws: GoldenError.self) {
        try Golden(directory: directory, tolerance: .perceptual, isRecording: false)
          .verify(VipsImage.solid(width: 9, height: 8, color: [0, 0, 0]), named: "square")
      }
      #expect(error.description.contains("expected 8×8, got 9×8"))
    }
  }

  @Test func defaultDirectoryIsNextToTheTestFile() {
    let golden = Golden()
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    #expect(golden.directory.path == here.appendingPathComponent("Goldens").path)
    #expect(golden.referenceURL(named: "a").lastPathComponent == "a.png")
    #expect(Golden.recordEnvironmentVariable == "THUMBFORGE_RECORD_GOLDENS")
    #expect(
      Golden.isRecordingRequested
        == (ProcessInfo.processInfo.environment["THUMBFORGE_RECORD_GOLDENS"] == "1"))
  }
}
