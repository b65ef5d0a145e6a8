import Foundation
import Testing
import Vips

/// `build --dry-run` (text and JSON), `--swift FILE` (a file swiftc accepts) and
/// `--contact-sheet FILE` (a PNG).
@Suite("Dry run, Swift accessors, contact sheet", .timeLimit(.minutes(10)))
struct DryRunAccessorsContactSheetTests {
  @Test("--dry-run prints the plan and writes nothing")
  func dryRunText() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let assetsBefore = FolderSnapshot(box.assets)
    let result = try await box.build(["--dry-run"])
    expectExit(result, 0)
    for name in ["Flags/Red", "Flags/Blue", "Photos/Lake", "Photos/Tree", "Icon"] {
      #expect(result.stdout.contains(name), "plan names \(name)\n\(result)")
    }
    for path in Sandbox.standardOutputs.keys {
      let file = (path as NSString).lastPathComponent
      #expect(result.stdout.contains(file), "plan lists \(file)\n\(result)")
    }
    #expect(result.stdout.contains("120x75"), "plan shows pixel sizes\n\(result)")
    #expect(result.stdout.contains("5 sources, 14 outputs"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: box.out.path), "dry run wrote into out/")
    #expect(FolderSnapshot(box.assets).touched(comparedTo: assetsBefore) == [])

    // After a build, a dry run still writes nothing.
    expectExit(try await box.build(), 0)
    let built = FolderSnapshot(box.out)
    expectExit(try await box.build(["--dry-run", "--force"]), 0)
    #expect(FolderSnapshot(box.out).touched(comparedTo: built) == [])
  }

  @Test("--dry-run --json parses as JSON and lists every planned output")
  func dryRunJSON() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let result = try await box.build(["--dry-run", "--json"])
    expectExit(result, 0)
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result)")
    let sets = try #require(plan["imageSets"] as? [[String: Any]], "\(result)")
    #expect(sets.compactMap { $0["folder"] as? String }.sorted() == Sandbox.standardImageSets)
    let paths = sets.flatMap { ($0["outputs"] as? [[String: Any]]) ?? [] }
      .compactMap { $0["path"] as? String }
    #expect(paths.sorted() == Sandbox.standardOutputs.keys.sorted())
    #expect((plan["problems"] as? [Any])?.isEmpty == true)
    #expect(!FileManager.default.fileExists(atPath: box.out.path))
  }

  @Test(
    "--swift FILE writes accessors that swiftc type-checks, for awkward names",
    .enabled(if: swiftc != nil, "swiftc not found: the accessors cannot be type-checked"))
  func swiftAccessors() async throws {
    let swiftc = try #require(Self.swiftc)
    let box = try Sandbox()
    let names = [
      "Flags/United States", "Flags/united-states", "Flags/3D Logo", "Flags/Côte d’Ivoire",
      "Flags/class", "Flags/default", "Icons/self", "Icons/Type", "Icons/日本",
      "Icons/my_icon", "Icons/My Icon", "Icons/-", "404",
    ]
    for (index, name) in names.enumerated() {
      let colors = ["#336699", "#ffcc00", "#cc3344"]
      try box.svg("\(name).svg", width: 30, height: 20, colors: [colors[index % 3]])
    }
    let file = box.root.appendingPathComponent("Generated/Asset.swift")
    let result = try await box.build(["--swift", file.path])
    expectExit(result, 0)
    let text = try String(contentsOf: file, encoding: .utf8)
    for name in names {
      let asset = (name as NSString).lastPathComponent
      #expect(text.contains("\"\(asset)\""), "\(asset) has a constant\n\(text)")
    }

    // Type-check it together with a use of it.
    let use = box.root.appendingPathComponent("Generated/Use.swift")
    try "let names: [String] = [Asset.Flags.unitedStates]\n".write(
      to: use, atomically: true, encoding: .utf8)
    let check = try await Self.runTool(swiftc, ["-typecheck", file.path, use.path], in: box.root)
    #expect(check.status == 0, "swiftc -typecheck failed:\n\(check.output)\n\(text)")

    // A rebuild with no change leaves the file alone.
    let stamp = FolderSnapshot(file.deletingLastPathComponent()).files["Asset.swift"]
    expectExit(try await box.build(["--swift", file.path]), 0)
    #expect(FolderSnapshot(file.deletingLastPathComponent()).files["Asset.swift"] == stamp)
  }

  @Test("--contact-sheet FILE writes a PNG of the outputs, each in its labelled cell")
  func contactSheet() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let sheet = box.root.appendingPathComponent("sheet.png")
    let result = try await box.build(["--contact-sheet", sheet.path])
    expectExit(result, 0)
    let data = try Data(contentsOf: sheet)
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG")
    let image = try VipsImage.load(path: sheet.path)
    #expect(image.loader?.hasPrefix("png") == true)
    // One 180 px cell per output of the manifest, in its order, 8 across, 4 px apart.
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: box.manifest))
    let sets = try #require((manifest as? [String: Any])?["imageSets"] as? [[String: Any]])
    let paths = sets.flatMap { ($0["outputs"] as? [[String: Any]]) ?? [] }
      .compactMap { $0["path"] as? String }
    #expect(paths.count == Sandbox.standardOutputs.count)
    let outputs = paths.count
    try #require(outputs > 0)
    let across = min(8, outputs)
    let rows = (outputs + across - 1) / across
    #expect(image.width == across * 180 + (across - 1) * 4, "\(image.width) for \(outputs) outputs")
    #expect(image.height == rows * 180 + (rows - 1) * 4, "\(image.height) for \(outputs) outputs")
    try #require(image.width == across * 184 - 4 && image.height == rows * 184 - 4)
    // Every cell holds its output, shrunk to fit above the label, and a label (dark ink in
    // its bottom strip).
    let rgb = try image.extractBand(0, count: 3)
    for (index, path) in paths.enumerated() {
      let cell = (x: (index % across) * 184, y: (index / across) * 184)
      try Self.expectCell(
        of: rgb, at: cell, shows: box.catalog.appendingPathComponent(path), "cell \(index), \(path)"
      )
      let label = try rgb.crop(x: cell.x + 3, y: cell.y + 142, width: 174, height: 36).pixelBytes()
      #expect(label.contains { $0 < 100 }, "cell \(index) has no label")
    }
  }

  /// Expects the 180 × 180 cell of `sheet` (RGB) at `cell` to show the picture `file` as the
  /// contact sheet lays it out: fitted into 172 × 132 (never enlarged), centred above the
  /// 40 px label. The middle half of the picture's place is compared, band by band, with the
  /// middle half of the picture shrunk the same way and flattened onto the checkerboard's mean
  /// grey (means within 6 of 255).
  static func expectCell(
    of sheet: VipsImage, at cell: (x: Int, y: Int), shows file: URL, _ comment: Comment
  ) throws {
    let picture = try VipsImage.load(path: file.path).toSRGB8().addingAlpha()
    let scale = min(1, min(172 / Double(picture.width), 132 / Double(picture.height)))
    let width = max(1, Int((Double(picture.width) * scale).rounded()))
    let height = max(1, Int((Double(picture.height) * scale).rounded()))
    let thumb = try scale < 1 ? picture.resize(width: width, height: height) : picture
    let middle = (x: width / 4, y: height / 4, width: max(1, width / 2), height: max(1, height / 2))
    let expected = try thumb.flattened(background: [220, 220, 220]).crop(
      x: middle.x, y: middle.y, width: middle.width, height: middle.height)
    let shown = try sheet.crop(
      x: cell.x + (180 - width) / 2 + middle.x, y: cell.y + (140 - height) / 2 + middle.y,
      width: middle.width, height: middle.height)
    for band in 0..<3 {
      let want = try expected.extractBand(band).average()
      let got = try shown.extractBand(band).average()
      #expect(abs(want - got) <= 6, "\(comment): band \(band) mean \(got), the output's \(want)")
    }
  }

  static let swiftc: String? = {
    var candidates = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
    if let path = ProcessInfo.processInfo.environment["PATH"] {
      candidates = path.split(separator: ":").map { "\($0)/swiftc" } + candidates
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Runs another program and waits for it (output merged).
  static func runTool(_ tool: String, _ arguments: [String], in folder: URL) async throws
    -> (status: Int32, output: String)
  {
    let log = folder.appendingPathComponent(".tool-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = handle
    process.standardError = handle
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do { try process.run() } catch { continuation.resume(throwing: error) }
    }
    try? handle.close()
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(at: log)
    return (status, output)
  }
}
