import Dispatch
import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Damaged, missing and non-image input must give a `VipsError` with a useful message —
/// never a crash or a silently wrong image.
///
/// libvips keeps a single process-wide error buffer, so the tests that make it fail run
/// one at a time; otherwise one test could read another's message.
@Suite(.serialized) struct BadInputTests {
  /// Writes a 160×120 photo in `format` and a half-length copy; returns the copy.
  static func truncatedFile(_ format: ImageFormat, in directory: URL) throws -> URL {
    let photo = try Fixtures.gradient(width: 160, height: 120)
    let url = try Fixtures.write(
      photo, as: format, named: "photo", in: directory, options: SaveOptions(quality: 90))
    return try Fixtures.truncatedCopy(of: url, keeping: 0.5)
  }

  /// The error `body` fails with. The buffer is shared with the suites running beside this
  /// one, whose own failures can take its message first (leaving it empty): then `body` is
  /// tried again, as the build retries a failed job alone (see `WorkQueue`).
  static func failure(_ body: () throws -> Void) throws -> VipsError {
    var error = try #require(throws: VipsError.self) { try body() }
    for _ in 0..<5 where error.message.isEmpty {
      error = try #require(throws: VipsError.self) { try body() }
    }
    return error
  }

  static let decodeFailures: [(ImageFormat, String)] = [
    (.jpeg, "Premature end"), (.png, "read error"),
  ]

  @Test(arguments: decodeFailures, [FailOn.warning, .truncated])
  func truncatedFileFailsWhenPixelsAreRead(
    damage: (format: ImageFormat, reason: String), failOn: FailOn
  ) throws {
    try withTemporaryDirectory { directory in
      let url = try Self.truncatedFile(damage.format, in: directory)
      // libvips reads the header eagerly and pixels lazily: opening still succeeds.
      let image = try VipsImage.load(path: url.path, options: LoadOptions(failOn: failOn))
      #expect(image.width == 160 && image.height == 120)

      let copyError = try Self.failure { _ = try image.copiedToMemory() }
      #expect(copyError.message.contains(damage.reason), "\(copyError)")

      let averageError = try Self.failure {
        _ = try VipsImage.load(path: url.path, options: LoadOptions(failOn: failOn)).average()
      }
      #expect(averageError.message.contains(damage.reason), "\(averageError)")
      #expect(averageError.context == "avg")
    }
  }

  @Test(arguments: [ImageFormat.jpeg, .png])
  func truncatedFileDecodesWithFailOnNone(format: ImageFormat) throws {
    try withTemporaryDirectory { directory in
      let url = try Self.truncatedFile(format, in: directory)
      let image = try VipsImage.load(path: url.path, options: LoadOptions(failOn: FailOn.none))
      #expect(try image.copiedToMemory().width == 160)
    }
  }

  @Test func truncatedBytesFailWhenPixelsAreRead() throws {
    try withTemporaryDirectory { directory in
      let url = try Self.truncatedFile(.jpeg, in: directory)
      // libvips' error buffer is one for the whole process, and other tests fail on other
      // threads meanwhile: a message of theirs can come first (once, "source: bad seek").
      // Each attempt must fail; one of a few must say why in its own words.
      var messages: [String] = []
      for _ in 0..<3 where !messages.contains(where: { $0.contains("Premature end") }) {
        let image = try VipsImage.load(bytes: [UInt8](Data(contentsOf: url)))
        let error = try #require(throws: VipsError.self) { try image.pixelBytes() }
        messages.append(error.message)
      }
      #expect(messages.contains { $0.contains("Premature end") }, "\(messages)")
    }
  }

  @Test func zeroByteFileIsNotAKnownFormat() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.zeroByteFile(named: "empty.jpg", in: directory)
      let error = try #require(throws: VipsError.self) { try VipsImage.load(path: url.path) }
      #expect(error.context == url.path)
      #expect(error.description.contains("empty.jpg"))
      #expect(error.message.contains("not a known file format"), "\(error)")
    }
  }

  @Test func textFileNamedPNGIsNotAKnownFormat() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.textFile(named: "not-an-image.png", in: directory)
      let error = try #require(throws: VipsError.self) { try VipsImage.load(path: url.path) }
      #expect(error.description.contains("not-an-image.png"))
      #expect(error.message.contains("not a known file format"), "\(error)")
    }
  }

  @Test func missingFileSaysItDoesNotExist() throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("missing.jpg").path
      let error = try #require(throws: VipsError.self) { try VipsImage.load(path: path) }
      #expect(error.context == path)
      #expect(error.message.contains("does not exist"), "\(error)")
      #expect(error.description.contains("missing.jpg"))
    }
  }

  @Test func emptyAndGarbageBuffersAreRejected() throws {
    let empty = try #require(throws: VipsError.self) { try VipsImage.load(bytes: []) }
    #expect(empty.description == "buffer: empty buffer")
    let garbage = try #require(throws: VipsError.self) {
      try VipsImage.load(bytes: Array("definitely not an image".utf8))
    }
    #expect(garbage.message.contains("not in a known format"), "\(garbage)")
  }

  @Test func savingToAMissingDirectoryNamesThePath() throws {
    let path = "/nonexistent-thumbforge-dir/out.png"
    let error = try #require(throws: VipsError.self) {
      try VipsImage.solid(width: 4, height: 4, color: [0, 0, 0]).save(path: path, as: .png)
    }
    #expect(error.context == path)
    #expect(!error.message.isEmpty)
  }

  @Test func cropOutsideTheImageFails() throws {
    let image = try Fixtures.gradient(width: 20, height: 10)
    let error = try #require(throws: VipsError.self) {
      try image.crop(x: 15, y: 0, width: 10, height: 10)
    }
    #expect(error.context == "extract_area")
    #expect(error.message.contains("bad extract area"), "\(error)")
  }

  @Test func invalidArgumentsAreErrorsNotCrashes() throws {
    let image = try Fixtures.gradient(width: 20, height: 10)
    #expect(throws: VipsError.self) {
      try image.smartCrop(width: 0, height: 5, interesting: .centre)
    }
    #expect(throws: VipsError.self) { try image.extractBand(5) }
  }

  @Test func errorsDoNotLeakIntoLaterCalls() throws {
    try withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("a.jpg").path
      _ = try? VipsImage.load(path: missing)
      let second = directory.appendingPathComponent("b.png")
      try Data("text".utf8).write(to: second)
      let error = try #require(throws: VipsError.self) { try VipsImage.load(path: second.path) }
      #expect(!error.message.contains("a.jpg"), "stale message from an earlier failure: \(error)")
    }
  }

  @Test func concurrentFailuresAllThrow() throws {
    let garbage = Array("not an image at all".utf8)
    let truncated = try withTemporaryDirectory { directory in
      [UInt8](try Data(contentsOf: Self.truncatedFile(.png, in: directory)))
    }
    let failures = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<25 {
        do {
          if (thread + index) % 2 == 0 {
            _ = try VipsImage.load(bytes: garbage)
          } else {
            _ = try VipsImage.load(bytes: truncated).average()
          }
        } catch {
          failures.increment()
        }
      }
    }
    #expect(failures.value == 200)
  }
}
