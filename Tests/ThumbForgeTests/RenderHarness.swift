import Foundation
import Vips

@testable import ThumbForge
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// A temporary asset folder with a configuration, planned and rendered in-process.
struct RenderHarness {
  let folder: URL

  init(config: String = "") throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-render-\(UUID().uuidString)")
    folder = root.appendingPathComponent("Assets")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(("output: ../out/Assets.xcassets\n" + config).utf8)
      .write(to: folder.appendingPathComponent("thumbforge.yml"))
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
  }

  /// Saves an image into the folder (creating sub-folders).
  func add(_ image: VipsImage, as path: String, format: ImageFormat, keepMetadata: Bool = false)
    throws
  {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try image.save(
      path: url.path, as: format, options: SaveOptions(quality: 95, stripMetadata: !keepMetadata))
  }

  func add(text: String, as path: String) throws {
    try add(bytes: Array(text.utf8), as: path)
  }

  /// Writes a file's bytes into the folder (creating sub-folders).
  func add(bytes: [UInt8], as path: String) throws {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  /// Plans and renders every output; returns decoded images by catalog path.
  func render() throws -> (plan: BuildPlan, images: [String: VipsImage], problems: [Problem]) {
    let (plan, files, problems) = try renderFiles()
    return (plan, try files.mapValues { try VipsImage.load(bytes: $0) }, problems)
  }

  /// Plans and renders every output; returns the files' bytes by catalog path.
  func renderFiles() throws -> (plan: BuildPlan, files: [String: [UInt8]], problems: [Problem]) {
    let engine = try BuildEngine(options: BuildOptions(folder: folder))
    let plan = engine.plan()
    let renderer = Renderer(folder: folder)
    var files: [String: [UInt8]] = [:]
    var problems = plan.problems
    for job in plan.jobs {
      let work = job.imageSets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
      let result = renderer.render(work, masters: job.source.allMasters)
      problems += result.problems
      for file in result.files { files[file.output.path] = file.bytes }
    }
    return (plan, files, problems)
  }
}

/// Deterministic test pictures.
enum TestImages {
  /// An asymmetric colour picture: gradients plus a dark block in the top-left quarter,
  /// so flips and rotations are visible.
  static func photo(width: Int, height: Int) throws -> VipsImage {
    let base = try VipsImage.solid(width: width, height: height, color: [40, 120, 200])
    let red = try VipsImage.solid(width: width / 2, height: height / 3, color: [230, 40, 30])
    let dark = try VipsImage.solid(width: width / 4, height: height / 4, color: [10, 10, 10])
    let green = try VipsImage.solid(width: width / 5, height: height / 2, color: [30, 200, 60])
    return try base.composite(red.addingAlpha(), mode: .over, x: width / 2, y: height / 2)
      .composite(dark.addingAlpha(), mode: .over, x: width / 10, y: height / 10)
      .composite(green.addingAlpha(), mode: .over, x: width * 7 / 10, y: height / 8)
      .extractBand(0, count: 3).copiedToMemory()
  }

  /// Mean absolute difference per band value (0–255) between two same-sized images.
  static func meanDifference(_ a: VipsImage, _ b: VipsImage) throws -> Double {
    let x = try a.toSRGB8().flattened(background: [255, 255, 255]).pixelBytes()
    let y = try b.toSRGB8().flattened(background: [255, 255, 255]).pixelBytes()
    precondition(x.count == y.count, "sizes differ")
    var total = 0
    for index in x.indices { total += abs(Int(x[index]) - Int(y[index])) }
    return Double(total) / Double(max(1, x.count))
  }
}
