// libFuzzer target `pipeline`: arbitrary bytes as the one master of an asset folder whose
// thumbforge.yml uses every recipe kind (variants, fit, fill, flag, tile), built in-process
// with BuildEngine. The first byte picks the master's extension (png, jpg, webp, svg, pdf,
// gif, tif, heic). Property: a fresh build either reports a problem naming the master (one
// line) for an output it did not write, or writes every planned output at exactly its
// planned pixel size; never a crash, and (with libFuzzer's -timeout) never a hang.
// A first byte of 0xF0 or more instead makes a whole generated asset folder and
// configuration (ThumbForgeTestSupport's AssetFolderGenerator, the pipeline property's) from
// the rest of the bytes, read as its random choices: see `runGenerated`.
// Built with Fuzz/pipeline/build.sh; without THUMBFORGE_FUZZ it is a replay tool:
// `swift run fuzz-pipeline FILE…`.
internal import Foundation
internal import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgePlanning
internal import ThumbForgeTestSupport
internal import Vips

let extensions = ["png", "jpg", "webp", "svg", "pdf", "gif", "tif", "heic"]

/// Small boxes and a low pixel limit keep every decode and render cheap.
let configuration = """
  output: ../out/Assets.xcassets
  scales: [1, 2, 3]
  limit-input-pixels: 1000000
  concurrency: 1
  default-recipes: [variants, fit, padded, fill, smart, flag, tile]
  recipes:
    fit: { size: [24, 16] }
    padded: { kind: fit, size: [20, 20], pad: true, background: "#336699" }
    fill: { size: [24, 12], gravity: northeast }
    smart: { kind: fill, size: [16, 16], gravity: attention, upscale: never }
    flag: { size: [20, 12], radius: 3, stroke-alignment: center }
    tile: { size: 10 }

  """

/// One scratch tree per process, in memory when /dev/shm exists.
let root: URL = {
  let base =
    FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
  return URL(fileURLWithPath: base).appendingPathComponent(
    "thumbforge-fuzz-pipeline-\(ProcessInfo.processInfo.processIdentifier)")
}()

/// Removes the scratch tree when the process ends (libFuzzer ends with exit()).
private let removeAtExit: Void = {
  _ = atexit { try? FileManager.default.removeItem(at: root) }
}()

func fail(_ message: String) -> Never {
  fatalError("pipeline: \(message)")
}

/// Builds one input; returns the number of outputs checked and the problems reported.
@discardableResult
func runOne(_ bytes: [UInt8]) -> (checked: Int, problems: [String]) {
  guard let first = bytes.first else { return (0, []) }
  if first >= generatedMode { return runGenerated(Array(bytes.dropFirst())) }
  let ext = extensions[Int(first) % extensions.count]
  _ = removeAtExit
  let masterPath = "Masters/" + masterName(ext)
  let assets = writeAssetFolder(master: bytes.dropFirst(), named: masterName(ext))
  var options = BuildOptions(folder: assets)
  options.jobs = 1
  let engine: BuildEngine
  let report: BuildReport
  do {
    engine = try BuildEngine(options: options)
    report = try engine.run()
  } catch {
    fail("the build threw instead of reporting: \(error)")
  }
  checkProblemsAreOneLine(report)
  let namesMaster = report.problems.contains { $0.path == masterPath }
  let checked = checkRenderedOutputs(of: engine, namesMaster: namesMaster, masterPath: masterPath)
  return (checked, report.problems.map(\.description))
}

/// The master's file name: vector masters have no scale suffix; raster ones are 2x masters.
func masterName(_ ext: String) -> String {
  ext == "svg" || ext == "pdf" ? "master.\(ext)" : "master@2x.\(ext)"
}

/// A fresh asset folder under the scratch tree: the configuration and one master of
/// `bytes` in `Masters/`; the folder's URL.
func writeAssetFolder(master bytes: ArraySlice<UInt8>, named name: String) -> URL {
  let fileManager = FileManager.default
  try? fileManager.removeItem(at: root)
  let assets = root.appendingPathComponent("assets", isDirectory: true)
  let group = assets.appendingPathComponent("Masters", isDirectory: true)
  do {
    try fileManager.createDirectory(at: group, withIntermediateDirectories: true)
    try Data(configuration.utf8).write(to: assets.appendingPathComponent("thumbforge.yml"))
    try Data(bytes).write(to: group.appendingPathComponent(name))
  } catch {
    fail("cannot write the asset folder: \(error)")
  }
  return assets
}

/// Stops when a problem is not one line naming a file.
func checkProblemsAreOneLine(_ report: BuildReport) {
  for problem in report.problems {
    if problem.path.isEmpty || problem.reason.isEmpty || problem.description.contains("\n") {
      fail("a problem is not one line naming a file: \(problem.description.debugDescription)")
    }
  }
}

/// Checks every rendered (not copied) output of the plan: written with its planned size, or
/// missing only when a problem names the master (`namesMaster`); the number checked.
func checkRenderedOutputs(of engine: BuildEngine, namesMaster: Bool, masterPath: String) -> Int {
  var checked = 0
  for job in engine.plan().jobs {
    for set in job.imageSets {
      for output in set.outputs where output.mode != .copy {
        let file = engine.workspace.catalog.appendingPathComponent(output.path).path
        guard FileManager.default.fileExists(atPath: file) else {
          if !namesMaster {
            fail("\(output.path) was planned, not written, and no problem names \(masterPath)")
          }
          continue
        }
        checkSize(of: file, output: output)
        checked += 1
      }
    }
  }
  return checked
}

/// Stops when the written output at `file` does not read or is not its planned size.
func checkSize(of file: String, output: PlannedOutput) {
  do {
    let image = try VipsImage.load(path: file)
    if image.width != output.pixelSize.width || image.height != output.pixelSize.height {
      fail("\(output.path) is \(image.width)x\(image.height), planned \(output.pixelSize)")
    }
  } catch {
    fail("\(output.path) was written but cannot be read: \(error)")
  }
}

/// First bytes from this value on select a generated asset folder.
let generatedMode: UInt8 = 0xF0

/// The pipeline property (Tests/ThumbForgeCLITests/PipelinePropertyTests.swift) in-process,
/// on an asset folder and configuration generated from `bytes` (``PropertyRandom`` reads
/// them as its choices, so that byte values 0x00 and 0xFF reach the extreme shapes, then
/// goes on from their hash): the build's problems name files of the folder; every manifest
/// output exists, decodes in full, and has its recorded size, format, 8 bits, alpha for
/// flags and no metadata unless kept; every `Contents.json` lists exactly its imageset's
/// files; `check` right after fails exactly when the build did; a second build renders
/// nothing.
func runGenerated(_ bytes: [UInt8]) -> (checked: Int, problems: [String]) {
  _ = removeAtExit
  let fileManager = FileManager.default
  try? fileManager.removeItem(at: root)
  let assets = root.appendingPathComponent("assets", isDirectory: true)
  var random = PropertyRandom(bytes: bytes)
  let folder: GeneratedAssetFolder
  do {
    try fileManager.createDirectory(at: assets, withIntermediateDirectories: true)
    folder = try AssetFolderGenerator.make(random: &random)
    try folder.write(to: assets)
  } catch {
    fail("cannot generate the asset folder: \(error)")
  }
  func run(_ mode: BuildMode) -> BuildReport {
    var options = BuildOptions(folder: assets)
    options.jobs = 1
    options.mode = mode
    do {
      return try BuildEngine(options: options).run()
    } catch {
      fail("\(mode) threw instead of reporting: \(error)\n\(folder.summary)")
    }
  }
  // THUMBFORGE_PROPERTY_ALLOW=webp-metadata leaves WebP outputs' metadata unchecked (libvips
  // 8.14's webpsave ignores strip: see CatalogAudit.allowsWebPMetadata), as the test does.
  let audit = CatalogAudit(
    folder: folder, assets: assets,
    allowsWebPMetadata: ProcessInfo.processInfo.environment["THUMBFORGE_PROPERTY_ALLOW"]
      == "webp-metadata")
  let report = run(.build)
  var violations = audit.problemViolations(report.problems.map(\.description))
  violations += audit.catalogViolations()
  let check = run(.check)
  if check.exitCode != report.exitCode {
    violations.append("check exited \(check.exitCode) after a build that exited \(report.exitCode)")
  }
  violations += audit.problemViolations(check.problems.map(\.description))
  let second = run(.build)
  if second.rendered != 0 { violations.append("the second build rendered \(second.rendered)") }
  if second.exitCode != report.exitCode {
    violations.append("the second build exited \(second.exitCode), the first \(report.exitCode)")
  }
  if !violations.isEmpty {
    fail(violations.joined(separator: "\n") + "\n" + folder.summary)
  }
  return (report.rendered, report.problems.map(\.description))
}

/// LeakSanitizer's built-in suppressions: swift-foundation on Linux leaks the 4 KB buffer
/// `Data(contentsOf:)` / `FileManager.contents(atPath:)` allocate for an empty file (its
/// zero-size path keeps a malloc'd chunk for a Data of length 0 and never frees it). That
/// is the toolchain's bug, not ThumbForge's, and every parser here reads files that way.
/// Likewise swift-corelibs-foundation's `_CFRegularExpressionCreate` leaks its copy of a
/// long pattern (a 400-character glob leaks, a 250-character one does not; `Glob` compiles each
/// rule's pattern with NSRegularExpression); only the allocation inside that function is
/// ignored. libheif's x265 encoder keeps global state for the life of the process (the
/// generated folders hold HEIF masters; `Scripts/sanitizers/lsan.supp` says the same).
/// cairo and pixman objects made by libvips' vector loaders (librsvg for SVG, poppler for
/// PDF) while a generated PDF or SVG master is rasterised can be left in a cycle no pointer
/// reaches: LeakSanitizer reports them as indirect leaks with no direct one, allocated inside
/// libcairo and libpixman; ThumbForge calls neither (found by the fuzz smoke).
@_cdecl("__lsan_default_suppressions")
package func leakSuppressions() -> UnsafePointer<CChar> {
  UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}
private let suppressions: StaticString =
  "leak:readBytesFromFile\nleak:_CFRegularExpressionCreate\nleak:x265\nleak:libcairo\nleak:libpixman\n"

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  runOne(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

#if !THUMBFORGE_FUZZ
  @main
  struct Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          print("\(path): cannot read")
          continue
        }
        let (checked, problems) = runOne(Array(data))
        print(
          "\(path): ok, \(checked) outputs "
            + (data.first.map { $0 >= generatedMode } == true
              ? "rendered, the property holds" : "at their planned sizes"))
        for problem in problems { print("  problem: \(problem)") }
      }
      try? FileManager.default.removeItem(at: root)
    }
  }
#endif
