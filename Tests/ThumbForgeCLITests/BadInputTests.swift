import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Damaged, fake, empty, enormous and unreadable inputs: each is named on stderr with a
/// reason, every good image still renders, the exit code is 1, and nothing is lost.
@Suite("Bad input", .timeLimit(.minutes(10)))
struct BadInputTests {
  /// Bad file → words (any one, case-insensitive) its error line must contain.
  static let badFiles: [String: [String]] = [
    "Bad/cut.jpg": ["truncated", "damaged", "premature"],
    "Bad/torn.png": ["truncated", "damaged", "premature"],
    "Bad/empty.png": ["empty", "0 bytes"],
    "Bad/notes.jpg": ["not an image", "not a known"],
    "Bad/huge.png": ["limit"],
  ]

  static let goodOutputs: [String: (Int, Int)] = [
    "Good/Lake.imageset/Lake@2x.jpg": (200, 100),
    "Good/Lake.imageset/Lake@3x.jpg": (300, 150),
    "Good/Tree.imageset/Tree@2x.png": (200, 100),
    "Good/Tree.imageset/Tree@3x.png": (300, 150),
    "Good/Sky.imageset/Sky@2x.jpg": (200, 100),
    "Good/Sky.imageset/Sky@3x.jpg": (300, 150),
  ]

  /// How the unreadable folder can be made unreadable for the binary here.
  enum LockMode {
    /// Not root: chmod 000 is enough.
    case chmod
    /// Root (which reads anything): run the binary as `nobody` with `setpriv`.
    case nobody
    /// Root without `setpriv`: that part is left out.
    case unavailable
  }

  static var lockMode: LockMode {
    if geteuid() != 0 { return .chmod }
    return CLI.setpriv != nil ? .nobody : .unavailable
  }

  func makeGoodAssets(_ box: Sandbox) throws {
    try box.image("Good/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 5))
    try box.image("Good/Tree.png", Fixtures.photo(width: 300, height: 150, seed: 6))
    try box.image("Good/Sky.jpg", Fixtures.photo(width: 300, height: 150, seed: 7))
  }

  func makeBadAssets(_ box: Sandbox) throws {
    let jpeg = Data(try Fixtures.photo(width: 300, height: 150, seed: 8).encoded(as: .jpeg))
    let png = Data(try Fixtures.photo(width: 300, height: 150, seed: 9).encoded(as: .png))
    try box.write(truncated(jpeg), to: "Bad/cut.jpg")
    try box.write(truncated(png), to: "Bad/torn.png")
    try box.write(Data(), to: "Bad/empty.png")
    try box.write("These are my notes, not a photo.\n", to: "Bad/notes.jpg")
    try box.write(Fixtures.hugePNG, to: "Bad/huge.png")
  }

  @Test(
    "Files that are not masters are named with why in --verbose and counted in the summary; exit 0")
  func notMasters() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.write("credits", to: "CREDITS.md")
    try box.write(Data([0, 0, 0, 12]), to: "Photos/scan.jp2")
    try box.write("x", to: "Photos/README")
    let quiet = try await box.build()
    expectExit(quiet, 0)
    #expect(quiet.stdout.contains("; 3 files are not masters (--verbose names them)"), "\(quiet)")
    let verbose = try await box.build(["--verbose", "--force"])
    expectExit(verbose, 0)
    for line in [
      "note: CREDITS.md: not a master: .md is not an image format",
      "note: Photos/scan.jp2: not a master: .jp2 images are not read",
      "note: Photos/README: not a master: no file extension",
    ] {
      #expect(verbose.stdout.contains(line) || verbose.stderr.contains(line), "\(line)\n\(verbose)")
    }
    let upToDate = try await box.build()
    #expect(upToDate.stdout.contains("nothing to render; 3 files are not masters"), "\(upToDate)")
  }

  @Test("Good images render; every bad one is named with a reason; exit 1; nothing lost")
  func mixedFolder() async throws {
    let box = try Sandbox()
    try makeGoodAssets(box)
    try makeBadAssets(box)
    try box.addHandMadeItems()
    let mode = Self.lockMode
    var expected = Self.badFiles
    if mode == .unavailable {
      print(
        "BadInputTests: running as root without setpriv; the unreadable-folder part is skipped")
    } else {
      try box.image("Locked/Hidden.jpg", Fixtures.photo(width: 300, height: 150, seed: 10))
      expected["Locked"] = ["cannot read", "permission"]
    }
    let assetsBefore = FolderSnapshot(box.assets)
    if mode == .nobody { try chownTree(box.root, to: 65534) }
    if mode != .unavailable { #expect(chmod(box.asset("Locked").path, 0) == 0) }
    defer { _ = chmod(box.asset("Locked").path, 0o755) }

    // One job at a time: with several, concurrent failures can swap their libvips messages
    // (see `concurrentFailuresKeepTheirOwnReasons`).
    let result = try await box.build(["--jobs", "2"], asNobody: mode == .nobody)
    expectExit(result, 1)
    try expectNamed(expected, in: result)
    for (path, size) in Self.goodOutputs {
      #expect(try imageSize(box.inCatalog(path)) == size, "\(path)")
    }
    let sets = try box.manifestImageSets()
    #expect(
      sets.keys.sorted() == ["Good/Lake.imageset", "Good/Sky.imageset", "Good/Tree.imageset"])
    #expect(!FileManager.default.fileExists(atPath: box.inCatalog("Bad").path))

    // The asset folder is exactly as it was; a second run fails the same way.
    _ = chmod(box.asset("Locked").path, 0o755)
    #expect(FolderSnapshot(box.assets).touched(comparedTo: assetsBefore) == [])
    if mode != .unavailable { _ = chmod(box.asset("Locked").path, 0) }
    let again = try await box.build(["--jobs", "2"], asNobody: mode == .nobody)
    expectExit(again, 1)
    try expectNamed(expected, in: again)
    #expect(box.handMadeSnapshot().count == Sandbox.handMade.count)
  }

  @Test("A source that goes bad keeps its previous outputs; the others still update")
  func sourceGoesBad() async throws {
    let box = try Sandbox()
    try makeGoodAssets(box)
    try box.addHandMadeItems()
    let handMade = box.handMadeSnapshot()
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.catalog)
    let setsBefore = try canonicalEntries(try box.manifestImageSets())

    // Sky is damaged, Tree becomes a text file, Lake changes for real.
    let sky = try Data(contentsOf: box.asset("Good/Sky.jpg"))
    try box.write(truncated(sky, fraction: 0.4), to: "Good/Sky.jpg")
    try box.write("oops\n", to: "Good/Tree.png")
    try box.image("Good/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 50))
    let result = try await box.build()
    expectExit(result, 1)
    try expectNamed(
      [
        "Good/Sky.jpg": ["truncated", "damaged", "premature"],
        "Good/Tree.png": ["not an image", "not a known"],
      ], in: result)

    let after = FolderSnapshot(box.catalog)
    let kept = before.paths.filter { $0.hasPrefix("Good/Sky") || $0.hasPrefix("Good/Tree") }
    #expect(kept.count == 6)
    for path in kept { #expect(after.files[path] == before.files[path], "\(path) was touched") }
    #expect(
      after.changedContent(comparedTo: before) == [
        "Good/Lake.imageset/Lake@2x.jpg", "Good/Lake.imageset/Lake@3x.jpg",
      ])
    let setsAfter = try canonicalEntries(try box.manifestImageSets())
    #expect(setsAfter["Good/Sky.imageset"] == setsBefore["Good/Sky.imageset"])
    #expect(setsAfter["Good/Tree.imageset"] == setsBefore["Good/Tree.imageset"])
    #expect(setsAfter["Good/Lake.imageset"] != setsBefore["Good/Lake.imageset"])
    #expect(box.handMadeSnapshot() == handMade)

    // Repaired: the next build re-renders them and succeeds.
    try box.image("Good/Sky.jpg", Fixtures.photo(width: 300, height: 150, seed: 7))
    try box.image("Good/Tree.png", Fixtures.photo(width: 300, height: 150, seed: 60))
    expectExit(try await box.build(), 0)
    expectExit(try await box.check(), 0)
  }

  @Test("Failures in parallel jobs each keep their own reason")
  func concurrentFailuresKeepTheirOwnReasons() async throws {
    let box = try Sandbox()
    for index in 0..<4 {
      let jpeg = Data(try Fixtures.photo(width: 300, height: 150, seed: index).encoded(as: .jpeg))
      let png = Data(try Fixtures.photo(width: 300, height: 150, seed: index + 9).encoded(as: .png))
      try box.write(truncated(jpeg), to: "Bad/j\(index).jpg")
      try box.write(truncated(png), to: "Bad/p\(index).png")
    }
    for _ in 0..<3 {
      let result = try await box.build(["--jobs", "2"])
      expectExit(result, 1)
      for index in 0..<4 {
        try expectNamed(["Bad/j\(index).jpg": ["jpeg"], "Bad/p\(index).png": ["png"]], in: result)
      }
    }
  }

  @Test("stderr holds one line per problem, without libvips' own warnings")
  func stderrIsOneLinePerProblem() async throws {
    let box = try Sandbox()
    try makeGoodAssets(box)
    let jpeg = Data(try Fixtures.photo(width: 300, height: 150, seed: 8).encoded(as: .jpeg))
    try box.write(truncated(jpeg), to: "Bad/cut.jpg")
    try box.write("not an image\n", to: "Bad/notes.png")
    let result = try await box.build(["--jobs", "2"])
    expectExit(result, 1)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
    let other = lines.filter { line in
      !["error: ", "rendering ", "progress: "].contains { line.hasPrefix($0) }
    }
    #expect(other == [], "stray lines on stderr\n\(result)")
    #expect(lines.filter { $0.hasPrefix("error: ") }.count == 2, "\(result)")
  }

  @Test("limit-input-pixels is configurable")
  func configuredPixelLimit() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        limit-input-pixels: 20000

        """)
    try box.image("Big.jpg", Fixtures.photo(width: 300, height: 150, seed: 1))  // 45000 px
    try box.image("Small.jpg", Fixtures.photo(width: 150, height: 90, seed: 2))  // 13500 px
    let result = try await box.build()
    expectExit(result, 1)
    try expectNamed(["Big.jpg": ["limit"]], in: result)
    #expect(result.stderr.contains("20000"), "\(result)")
    #expect(try imageSize(box.inCatalog("Small.imageset/Small@3x.jpg")) == (150, 90))
  }

  /// Each path has its own `error:` line on stderr, with a reason containing one of the words.
  func expectNamed(
    _ expected: [String: [String]], in result: CLIResult,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let lines = result.stderr.split(separator: "\n").map(String.init)
    for (path, words) in expected.sorted(by: { $0.key < $1.key }) {
      let line = lines.first { $0.hasPrefix("error: \(path): ") || $0.hasPrefix("error: \(path) ") }
      guard let line else {
        Issue.record("no error line names \(path)\n\(result)", sourceLocation: sourceLocation)
        continue
      }
      let reason = line.dropFirst("error: \(path)".count).lowercased()
      #expect(
        words.contains { reason.contains($0.lowercased()) },
        "the reason for \(path) should say one of \(words): \(line)", sourceLocation: sourceLocation
      )
    }
  }
}

/// Gives a folder tree to `uid` (and the group of the same number).
func chownTree(_ root: URL, to uid: UInt32) throws {
  #expect(chown(root.path, uid, uid) == 0, "chown \(root.path)")
  guard let items = FileManager.default.enumerator(atPath: root.path) else { return }
  while let item = items.nextObject() as? String {
    #expect(chown(root.appendingPathComponent(item).path, uid, uid) == 0, "chown \(item)")
  }
}
