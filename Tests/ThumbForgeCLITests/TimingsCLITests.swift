import Foundation
import Testing

/// `--timings`: each stage's wall and CPU time after the run, on stderr.
@Suite("--timings", .timeLimit(.minutes(5)))
struct TimingsCLITests {
  /// The stage lines of a `--timings` table in `stderr`: name, wall ms, CPU ms, cores.
  static func stages(in stderr: String) -> [(
    name: String, wall: Double, cpu: Double, cores: Double
  )] {
    let lines = stderr.components(separatedBy: "\n")
    guard let header = lines.firstIndex(where: { $0.hasPrefix("timings:") }) else { return [] }
    return lines[(header + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count >= 4, let cores = Double(fields[fields.count - 1]),
        let cpu = Double(fields[fields.count - 2]), let wall = Double(fields[fields.count - 3])
      else { return nil }
      return (fields.dropLast(3).joined(separator: " "), wall, cpu, cores)
    }
  }

  @Test("build --timings prints every stage, in order, and a total that is their sum")
  func build() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let plain = try await box.build()
    expectExit(plain, 0)
    #expect(!plain.stderr.contains("timings:"), "\(plain)")
    let result = try await box.build(["--force", "--timings"])
    expectExit(result, 0)
    let stages = Self.stages(in: result.stderr)
    #expect(
      stages.map(\.name) == [
        "arguments and configuration", "previous state", "discovery", "decisions", "rendering",
        "rendering, last jobs", "commit", "total",
      ], "\(result)")
    for stage in stages {
      #expect(stage.wall >= 0 && stage.cpu >= 0 && stage.cores >= 0, "\(stage)")
    }
    let parts = stages.dropLast()
    let total = try #require(stages.last)
    // Each figure is rounded to 0.1 ms.
    #expect(abs(parts.reduce(0) { $0 + $1.wall } - total.wall) <= 0.05 * Double(stages.count))
    #expect(abs(parts.reduce(0) { $0 + $1.cpu } - total.cpu) <= 0.05 * Double(stages.count))
    // The run renders 14 outputs: rendering is most of the time between them.
    let rendering = try #require(stages.first { $0.name == "rendering" })
    #expect(rendering.cpu > 0 && rendering.wall > 0)
    #expect(!result.stdout.contains("timings"), "the table goes to stderr\n\(result)")
    // A dry run has no stages to time: a usage error rather than a flag that does nothing.
    let dry = try await box.build(["--dry-run", "--timings"])
    expectExit(dry, 2)
    #expect(dry.stderr.contains("--timings"), "\(dry)")
  }

  @Test("check --timings ends with the comparison instead of rendering and commit")
  func check() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    let result = try await box.check(["--timings"])
    expectExit(result, 0)
    #expect(
      Self.stages(in: result.stderr).map(\.name) == [
        "arguments and configuration", "previous state", "discovery", "decisions", "comparison",
        "total",
      ], "\(result)")
  }
}
