import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig

/// `build --watch`, in the core: one build at once, another after each change, none without.
@Suite("Watch", .timeLimit(.minutes(10)))
struct WatchTests {
  @Test("builds at once, again when a master is added, and stops when cancelled")
  func rebuildsOnChange() throws {
    let harness = try RenderHarness(config: "scales: [1, 2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    try harness.add(
      try VipsImage.solid(width: 16, height: 16, color: [20, 200, 20]), as: "Icons/Alpha.png",
      format: .png)
    let cancellation = CancellationFlag()
    var reports: [BuildReport] = []
    try Watch(
      options: BuildOptions(folder: harness.folder), cancellation: cancellation, interval: 0.05
    )
    .run { engine in
      reports.append(try engine.run())
      if reports.count == 1 {
        // Several looks at an unchanged folder (no build), then a master is added: saved
        // beside the folder and moved in, so that no look can see it half-written however
        // slowly this machine runs (a look that did, under load, built a truncated master).
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) {
          let aside = harness.folder.deletingLastPathComponent().appendingPathComponent("Beta.png")
          try? VipsImage.solid(width: 16, height: 16, color: [200, 20, 20])
            .save(path: aside.path, as: .png, options: SaveOptions(stripMetadata: true))
          try? FileManager.default.moveItem(
            at: aside, to: harness.folder.appendingPathComponent("Icons/Beta.png"))
        }
      } else {
        cancellation.cancel()
      }
    }
    #expect(reports.count == 2)
    #expect(reports.map(\.rendered) == [2, 2])
    #expect(reports[1].unchanged == 2)
  }

  /// A save of the configuration that does not load used to end the watch with its error.
  @Test("a configuration that does not load is reported and the watch goes on to the fixed save")
  func survivesABadConfiguration() throws {
    let harness = try RenderHarness(config: "scales: [1]\n")
    defer { harness.remove() }
    try harness.add(
      try VipsImage.solid(width: 16, height: 16, color: [20, 200, 20]), as: "Icons/Alpha.png",
      format: .png)
    let config = harness.folder.appendingPathComponent("thumbforge.yml")
    let cancellation = CancellationFlag()
    var events: [String] = []
    var reports: [BuildReport] = []
    // Each step is saved beside the folder and renamed over the configuration (rename(2)
    // replaces it whole), once the watch has settled.
    func save(_ text: String, after seconds: Double) {
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        let aside = harness.folder.deletingLastPathComponent().appendingPathComponent("next.yml")
        try? Data(("output: ../out/Assets.xcassets\n" + text).utf8).write(to: aside)
        _ = rename(aside.path, config.path)
      }
    }
    try Watch(
      options: BuildOptions(folder: harness.folder), cancellation: cancellation, interval: 0.05
    )
    .run { event in
      switch event {
      case .changed(let paths): events.append("changed " + paths.joined(separator: ","))
      case .configurationError(let error):
        events.append("error \(error.file):\(error.line ?? 0)")
        save("scales: [1, 2]\n", after: 0.4)
      }
    } _: { engine in
      reports.append(try engine.run())
      if reports.count == 1 {
        save("scales: [1, 2]\nconcurrency: lots\n", after: 0.4)
      } else {
        cancellation.cancel()
      }
    }
    #expect(
      events == [
        "changed thumbforge.yml", "error thumbforge.yml:3", "changed thumbforge.yml",
      ])
    #expect(reports.map(\.rendered) == [1, 2])
  }
}
