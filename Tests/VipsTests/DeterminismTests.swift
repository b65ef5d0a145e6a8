import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The same pixels must always encode to the same bytes, so output can be cached and
/// compared by hash.
@Suite struct DeterminismTests {
  static let cases: [(ImageFormat, SaveOptions)] = [
    (.png, SaveOptions()),
    (.png, SaveOptions(compression: 9, interlace: true)),
    (.jpeg, SaveOptions()),
    (.jpeg, SaveOptions(quality: 95, interlace: true)),
    (.webp, SaveOptions()),
    (.webp, SaveOptions(lossless: true)),
  ]

  static let childVariable = "THUMBFORGE_DETERMINISM_CHILD"
  static let isChild = ProcessInfo.processInfo.environment[childVariable] != nil

  /// The bytes depend neither on the process nor on how many threads libvips computes an
  /// image with: two processes of their own (libvips' thread count is process-wide, so it is
  /// changed only where no other test runs) each encode every case at 1 thread and at 4.
  @Test(
    "the same bytes at 1 and 4 libvips threads, and in two processes",
    .enabled(if: ChildTestRun.isAvailable && !isChild))
  func encodingDoesNotDependOnThreadsOrProcess() async throws {
    var runs: [ChildTestRun.Result] = []
    for _ in 0..<2 {
      runs.append(
        try await ChildTestRun.run(
          filter: "DeterminismTests/encodedInAChild", environment: [Self.childVariable: "1"]))
    }
    for run in runs { #expect(run.status == 0, "\(run.output)\n\(run.errors)") }
    let digests = runs.map { run in
      run.output.split(separator: "\n").filter { $0.hasPrefix("DETERMINISM ") }
    }
    #expect(digests[0].count == Self.cases.count, "\(runs[0].output)")
    #expect(digests[0] == digests[1])
  }

  /// One process's half of the test above: a lazy image large enough to be split into many
  /// tiles, from separately made copies of the same pixels; its digest on stdout.
  @Test(.enabled(if: isChild), .serialized, arguments: cases.indices)
  func encodedInAChild(index: Int) throws {
    let (format, options) = Self.cases[index]
    func encode(threads: Int) throws -> [UInt8] {
      Vips.concurrency = threads
      defer { Vips.concurrency = 1 }
      let image = try Fixtures.gradient(width: 1201, height: 907, layout: .rgba)
        .resize(width: 1000, height: 750)
      return try image.encoded(as: format, options: options)
    }
    let one = try encode(threads: 1)
    #expect(!one.isEmpty)
    #expect(try encode(threads: 4) == one)
    // FNV-1a: enough to compare two processes' bytes.
    let digest = one.reduce(UInt64(14_695_981_039_346_656_037)) {
      ($0 ^ UInt64($1)) &* 1_099_511_628_211
    }
    print("DETERMINISM \(index) \(format) \(one.count) \(String(digest, radix: 16))")
  }

  /// `save(path:)` runs libvips' file saver (`pngsave`, `jpegsave`, …) and `encoded(as:)` its
  /// buffer saver (`pngsave_buffer`, …): two entry points that must write the same bytes.
  ///
  /// The image is a lazy copy of a memory image (flipped twice). A memory image would send
  /// JPEG through ThumbForge's direct libjpeg-turbo encoder, which `save(path:)` and
  /// `encoded(as:)` share, so comparing the two would compare that encoder with itself
  /// (FastPathTests checks the direct encoder against libvips instead).
  @Test(arguments: ImageFormat.allCases.filter(Vips.canSave))
  func fileAndMemoryEncodersAgree(format: ImageFormat) throws {
    let memory = try Fixtures.gradient(
      width: 50, height: 40, layout: format.supportsAlpha ? .rgba : .rgb)
    let lazy = try memory.flipped(horizontal: true).flipped(horizontal: true)
    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("same.\(format.fileExtension)")
      try lazy.save(path: url.path, as: format)
      let fileBytes = try [UInt8](Data(contentsOf: url))
      let bufferBytes = try lazy.encoded(as: format)
      #expect(!fileBytes.isEmpty)
      #expect(
        fileBytes == bufferBytes,
        "\(fileBytes.count) bytes in the file, \(bufferBytes.count) in memory")
      #expect(
        try VipsImage.load(path: url.path).loader
          == VipsImageLoadSaveTests.expectedLoader(for: format))
      if format == .jpeg {
        // The direct encoder writes a JFIF header that libvips' stripped output lacks: if
        // these bytes were equal, the lazy copy would have taken the direct path after all.
        #expect(bufferBytes != (try memory.encoded(as: .jpeg)))
      }
    }
  }

  /// A file decoded by libvips' file loader and the same bytes by its buffer loader give
  /// the same resized, encoded output (`build` reads files, tests and fuzzers often bytes).
  @Test func fileAndBufferLoadersAgree() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(
        Fixtures.gradient(width: 80, height: 60), as: .jpeg, named: "source", in: directory)
      let fromFile = try VipsImage.load(path: url.path).resize(width: 40, height: 30)
      let bytes = try [UInt8](Data(contentsOf: url))
      let fromBytes = try VipsImage.load(bytes: bytes).resize(width: 40, height: 30)
      #expect(try fromFile.encoded(as: .jpeg) == fromBytes.encoded(as: .jpeg))
      #expect(try fromFile.encoded(as: .webp) == fromBytes.encoded(as: .webp))
    }
  }
}
