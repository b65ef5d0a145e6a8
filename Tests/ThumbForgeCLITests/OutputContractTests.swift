import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The output contract and the cost bound (docs/limits-and-security.md, *Limits and memory*): each case of the
/// issue that found them, through the real binary. No master traps the process, a render's
/// memory is bounded by its plan, a master shipped as it is was decoded first and carries
/// no metadata, the manifest states the size written, and `check` covers every file a
/// build writes.
@Suite("Output contract", .timeLimit(.minutes(10)))
struct OutputContractTests {
  /// A 1×2 000 000 PNG (4 KB) through the built-in fill, tile and flag: it used to trap in
  /// an `Int32` conversion (SIGILL, exit 132) and take the whole build with it. Now each
  /// output is refused with a named error, and the rest of the batch is built.
  @Test("an extreme shape is a named error, not a crash; the rest of the batch is built")
  func extremeShapeIsRefused() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "Thin/**"
            recipes: [fill, tile, flag]

        """)
    try box.write(Fixtures.blackPNG(width: 1, height: 2_000_000), to: "Thin/Pole.png")
    try box.write(Fixtures.blackPNG(width: 2_000_000, height: 1), to: "Thin/Wire.png")
    try box.image("Good/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 3))
    let result = try await box.build()
    expectExit(result, 1)
    #expect(!result.signalled)
    for name in ["Thin/Pole.png", "Thin/Wire.png"] {
      let line = result.stderr.split(separator: "\n").first { $0.contains(name) }
      #expect(line?.contains("pixels a side") == true, "\(result)")
    }
    #expect(
      FileManager.default.fileExists(atPath: box.inCatalog("Good/Lake.imageset/Lake@2x.jpg").path))
  }

  /// A 99-byte 1×5000 PNG through a `fill` with `gravity: attention` at 1x and 2x took
  /// more than the cap below (the smart crop looked at the whole enlargement). Under a 2 GB
  /// address space cap it now renders, at its exact size.
  @Test("a smart crop of a thin master renders within a 2 GB cap")
  func smartCropIsBounded() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "**"
            recipes: [banner]
        recipes:
          banner: { kind: fill, size: [400, 200], gravity: attention, scales: [1, 2] }

        """)
    try box.write(Fixtures.blackPNG(width: 1, height: 5000), to: "Pole.png")
    let result = try await CappedCLI.run(
      ["build", box.assets.path], in: box.root, addressSpaceKB: 2_000_000)
    #expect(result.status == 0, "\(result)")
    for (scale, size) in [(1, (400, 200)), (2, (800, 400))] {
      let image = try VipsImage.load(
        path: box.inCatalog("Pole-banner.imageset/Pole@\(scale)x.png").path)
      #expect((image.width, image.height) == size)
    }
  }

  /// A per-scale master used as it is, cut in half (its header intact), went into the catalog
  /// byte for byte (exit 0, `check` green). It is now decoded in full first.
  @Test("a damaged master used as-is is refused, not copied; check stays red")
  func damagedCopyIsRefused() async throws {
    let box = try Sandbox()
    let star = { (side: Int) in
      Data(try Fixtures.photo(width: side, height: side, seed: 4).encoded(as: .png))
    }
    try box.write(try star(40), to: "Icons/Star@2x.png")
    let whole = try star(60)
    try box.write(whole.prefix(whole.count / 2), to: "Icons/Star@3x.png")
    try box.image("Good/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 3))
    let result = try await box.build()
    expectExit(result, 1)
    #expect(
      result.stderr.contains("Icons/Star@3x.png: PNG truncated after"), "\(result)")
    #expect(
      !FileManager.default.fileExists(atPath: box.inCatalog("Icons/Star.imageset/Star@3x.png").path)
    )
    #expect(
      FileManager.default.fileExists(atPath: box.inCatalog("Good/Lake.imageset/Lake@3x.jpg").path))
    expectExit(try await box.check(), 1)
  }

  /// With one job, libvips ran its own two threads, and its threaded sink sometimes lost the
  /// loader's error: a truncated 98×6 PNG used as-is shipped in some builds (found by the
  /// pipeline property test). libvips now always runs single-threaded.
  @Test("with one job, a damaged copied master is refused in every build")
  func damagedCopyRefusedEveryTime() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\nconcurrency: 1\n")
    let full = Data(try Fixtures.icon(width: 147, height: 9, seed: 2).encoded(as: .png))
    let small = Data(try Fixtures.icon(width: 98, height: 6, seed: 2).encoded(as: .png))
    try box.write(full, to: "Pair@3x.png")
    try box.write(small.prefix(small.count * 3 / 4), to: "Pair@2x.png")
    for run in 1...12 {
      let result = try await box.build(["--force"])
      expectExit(result, 1)
      #expect(
        result.stderr.contains("Pair@2x.png: PNG truncated after")
          && result.stderr.contains("98×6"),
        "run \(run)")
    }
  }

  /// A `@2x` JPEG with EXIF (GPS position, camera make) at exactly its output's scale was
  /// copied with its metadata, although metadata is stripped unless `keep-metadata: true`;
  /// then it was re-encoded at quality 82 to strip it, and `keep-metadata: true` re-encoded
  /// it too. It is copied: without the EXIF segment (the rest byte for byte), or as it is.
  @Test("a master with metadata is copied without it, never re-encoded; keep-metadata keeps it")
  func metadataIsStripped() async throws {
    for keep in [false, true] {
      let box = try Sandbox(
        config:
          "output: ../out/Assets.xcassets\nrecipes:\n  variants: { keep-metadata: \(keep), scales: [2] }\n"
      )
      let plain = try Fixtures.photo(width: 200, height: 100, seed: 2).encoded(as: .jpeg)
      let withGPS = ExifWithGPS.inserted(into: plain)
      try box.write(Data(withGPS), to: "Photos/Pier@2x.jpg")
      let master = try VipsImage.load(path: box.asset("Photos/Pier@2x.jpg").path)
      #expect(master.hasMetadata && master.stringField("exif-ifd3-GPSLatitudeRef") != nil)
      expectExit(try await box.build(), 0)
      let url = box.inCatalog("Photos/Pier.imageset/Pier@2x.jpg")
      let output = try VipsImage.load(path: url.path)
      #expect(output.hasMetadata == keep, "keep-metadata: \(keep)")
      #expect((output.stringField("exif-ifd3-GPSLatitudeRef") != nil) == keep)
      #expect((output.width, output.height) == (200, 100))
      #expect(Array(try Data(contentsOf: url)) == (keep ? withGPS : plain), "keep: \(keep)")
    }
  }

  /// `stroke-alignment: center` grows the canvas of fill, fit and tile as it does a flag's;
  /// the manifest said 200×100 for a 204×104 file.
  @Test(
    "a centred stroke's grown canvas is what the manifest and the file say",
    arguments: [
      ("fill", "size: [100, 50]", (204, 104)),
      ("tile", "size: [50, 50]", (104, 104)),
      ("fit", "size: [100, 100]", (204, 104)),
      ("fit", "size: [100, 100], pad: true", (204, 204)),
      ("flag", "size: [100, 50]", (204, 104)),
    ])
  func centredStrokeSize(kind: String, box size: String, expected: (Int, Int)) async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "**"
            recipes: [framed]
        recipes:
          framed: { kind: \(kind), \(size), stroke-width: 2, stroke-alignment: center, scales: [2] }

        """)
    try box.image("Photo.jpg", Fixtures.photo(width: 600, height: 300, seed: 1))
    let result = try await box.build()
    expectExit(result, 0)
    let manifest = try box.readManifest()
    let sets = try #require(manifest["imageSets"] as? [[String: Any]])
    let output = try #require((sets.first?["outputs"] as? [[String: Any]])?.first)
    #expect((output["width"] as? Int, output["height"] as? Int) == (expected.0, expected.1))
    let path = try #require(output["path"] as? String)
    let image = try VipsImage.load(path: box.inCatalog(path).path)
    #expect((image.width, image.height) == expected, "\(kind) \(size)")
  }

  /// `check` said "up to date" after the generated Swift accessors file was edited or
  /// deleted, although `build` writes it; the manifest is covered too.
  @Test("check covers the Swift accessors file and the manifest")
  func checkCoversStateFiles() async throws {
    let box = try Sandbox(
      config: "output: ../out/Assets.xcassets\nswift: ../out/Asset.swift\n")
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 3))
    expectExit(try await box.build(), 0)
    expectExit(try await box.check(), 0)
    let swift = box.out.appendingPathComponent("Asset.swift")
    let original = try Data(contentsOf: swift)

    try Data("// edited\n".utf8 + original).write(to: swift)
    var check = try await box.check()
    expectExit(check, 1)
    #expect(check.stdout.contains("modified: Asset.swift"), "\(check)")
    try FileManager.default.removeItem(at: swift)
    check = try await box.check()
    expectExit(check, 1)
    #expect(check.stdout.contains("missing: Asset.swift"), "\(check)")
    expectExit(try await box.build(), 0)
    #expect(try Data(contentsOf: swift) == original)

    // A size the plan does not make: the imageset is judged again.
    let manifest = try Data(contentsOf: box.manifest)
    let edited = String(decoding: manifest, as: UTF8.self).replacingOccurrences(
      of: "\"height\" : 150", with: "\"height\" : 151")
    #expect(edited.utf8.count == manifest.count && Data(edited.utf8) != manifest)
    try Data(edited.utf8).write(to: box.manifest)
    check = try await box.check()
    expectExit(check, 1)
    #expect(check.stdout.contains("modified: Photos/Lake.imageset"), "\(check)")
    // The same record, written otherwise: not what a build writes.
    try (manifest + Data("\n".utf8)).write(to: box.manifest)
    check = try await box.check()
    expectExit(check, 1)
    #expect(check.stdout.contains("modified: manifest.json"), "\(check)")
    try FileManager.default.removeItem(at: box.manifest)
    check = try await box.check()
    expectExit(check, 1)
    #expect(check.stdout.contains("missing: manifest.json"), "\(check)")
  }
}

/// Runs the binary under an address-space cap (`ulimit -v`), as a memory bound a test can
/// set on one process.
enum CappedCLI {
  static func run(_ arguments: [String], in folder: URL, addressSpaceKB: Int) async throws
    -> CLIResult
  {
    let binary = try CLI.binary().path
    let quoted = ([binary] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let script = "ulimit -v \(addressSpaceKB) && exec " + quoted.joined(separator: " ")
    // Waited for on a thread of its own, not one of the test runner's shared threads.
    return try await offPool { try wait(script, in: folder, arguments: arguments) }
  }

  private static func wait(_ script: String, in folder: URL, arguments: [String]) throws
    -> CLIResult
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = folder
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal,
      stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self), arguments: arguments)
  }
}

/// A minimal EXIF block (camera make and a GPS position) put into a JPEG, as a phone's
/// camera writes one.
enum ExifWithGPS {
  /// `jpeg` with an APP1 EXIF segment after its start-of-image marker.
  static func inserted(into jpeg: [UInt8]) -> [UInt8] {
    precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
    let exif = Array("Exif".utf8) + [0, 0] + tiff
    let length = exif.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif
    return [0xFF, 0xD8] + segment + jpeg.dropFirst(2)
  }

  /// Little-endian TIFF: IFD0 (Make, GPS IFD pointer), then the GPS IFD (latitude
  /// reference and latitude), then the values that do not fit in an entry.
  private static var tiff: [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
    func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
      u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }
    let make = Array("ThumbCam\0".utf8)
    // Offsets from the TIFF header: header 8, IFD0 2 + 2×12 + 4 = 30, GPS IFD 30.
    let ifd0 = 8
    let gps = ifd0 + 30
    let makeAt = gps + 30
    let latitudeAt = makeAt + make.count
    var bytes: [UInt8] = Array("II".utf8) + u16(42) + u32(ifd0)
    bytes += u16(2) + entry(0x010F, 2, make.count, u32(makeAt)) + entry(0x8825, 4, 1, u32(gps))
    bytes += u32(0)
    bytes += u16(2) + entry(0x0001, 2, 2, Array("N\0".utf8)) + entry(0x0002, 5, 3, u32(latitudeAt))
    bytes += u32(0)
    bytes += make
    for (numerator, denominator) in [(45, 1), (55, 1), (1234, 100)] {
      bytes += u32(numerator) + u32(denominator)
    }
    return bytes
  }
}
