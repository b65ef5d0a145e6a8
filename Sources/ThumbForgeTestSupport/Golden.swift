package import Foundation
package import Vips

/// Compares images with stored reference ("golden") PNGs.
///
/// References are stored as 8-bit sRGB PNGs named `<name>.png` in ``directory``. Set the
/// environment variable `THUMBFORGE_RECORD_GOLDENS=1` to (re)write them: recording writes
/// the reference and then *throws* ``GoldenError/recorded(reference:)``, so a recording run
/// never passes silently. Typical use in a Swift Testing test:
///
/// ```swift
/// let golden = Golden(tolerance: .lossy)  // goldens next to this test file, in Goldens/
/// try golden.verify(thumbnail, named: "landscape-200")
/// ```
package struct Golden: Sendable {
  /// The environment variable that turns recording on when set to `1`.
  package static let recordEnvironmentVariable = "THUMBFORGE_RECORD_GOLDENS"

  /// Whether the environment asks for goldens to be recorded.
  package static var isRecordingRequested: Bool {
    ProcessInfo.processInfo.environment[recordEnvironmentVariable] == "1"
  }

  /// Where the reference PNGs live.
  package var directory: URL
  /// How far an image may differ from its reference.
  package var tolerance: ImageTolerance
  /// Whether ``verify(_:named:)`` writes references instead of checking them.
  package var isRecording: Bool

  /// Goldens stored in `directory`.
  package init(
    directory: URL, tolerance: ImageTolerance = .exact,
    isRecording: Bool = Golden.isRecordingRequested
  ) {
    self.directory = directory
    self.tolerance = tolerance
    self.isRecording = isRecording
  }

  /// Goldens stored in a `Goldens` folder next to the calling test file.
  package init(
    tolerance: ImageTolerance = .exact, isRecording: Bool = Golden.isRecordingRequested,
    testFile: StaticString = #filePath
  ) {
    let folder = URL(fileURLWithPath: "\(testFile)").deletingLastPathComponent()
    self.init(
      directory: folder.appendingPathComponent("Goldens", isDirectory: true),
      tolerance: tolerance, isRecording: isRecording)
  }

  /// The reference file for `name`.
  package func referenceURL(named name: String) -> URL {
    directory.appendingPathComponent("\(name).png")
  }

  /// Checks `image` against the reference called `name` (or records it).
  /// - Returns: the comparison, when the image matches within ``tolerance``.
  /// - Throws: ``GoldenError``: always when recording, otherwise when the reference is
  ///   missing, cannot be compared, or differs by more than the tolerance.
  @discardableResult
  package func verify(_ image: VipsImage, named name: String) throws(GoldenError)
    -> ImageComparison
  {
    let reference = referenceURL(named: name)
    if isRecording {
      try write(image, to: reference, reference: reference)
      throw .recorded(reference: reference.path)
    }
    guard FileManager.default.fileExists(atPath: reference.path) else {
      throw .missing(reference: reference.path)
    }
    let expected: VipsImage
    do {
      expected = try VipsImage.load(path: reference.path).copiedToMemory()
    } catch {
      throw .io(reference: reference.path, message: "cannot load reference: \(error)")
    }
    let comparison: ImageComparison
    do {
      comparison = try ImageComparison(expected, image)
    } catch {
      throw .incomparable(reference: reference.path, reason: error)
    }
    guard tolerance.accepts(comparison) else {
      let actual = FileManager.default.temporaryDirectory
        .appendingPathComponent(
          "thumbforge-golden-\(UUID().uuidString)-"
            + name.replacingOccurrences(of: "/", with: "_") + ".actual.png")
      let written = (try? write(image, to: actual, reference: reference)) != nil
      throw .mismatch(
        reference: reference.path, comparison: comparison, tolerance: tolerance,
        actual: written ? actual.path : "(could not be written)")
    }
    return comparison
  }

  private func write(_ image: VipsImage, to url: URL, reference: URL) throws(GoldenError) {
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw .io(reference: reference.path, message: "cannot create directory: \(error)")
    }
    do {
      try image.toSRGB8().save(path: url.path, as: .png, options: SaveOptions(compression: 9))
    } catch {
      throw .io(reference: reference.path, message: "cannot write \(url.path): \(error)")
    }
  }
}
