import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgePlanning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Probe cache")
struct ProbeCacheTests {
  @Test("round-trips sources and outputs, including 19-digit nanosecond times")
  func roundTrip() throws {
    var cache = ProbeCache()
    cache.sources["Flags/United States@3x.png"] = ProbeResult(
      byteSize: 1234, modified: 1_763_765_432_123_456_789, hash: "ab12", width: 600, height: 300,
      hasAlpha: true, isPlainSRGB: false, isWideGamut: true, frames: 12)
    cache.sources["Zürich.jpg"] = ProbeResult(
      byteSize: 1, modified: 0, hash: "ff", width: 1, height: 2, hasAlpha: false, isPlainSRGB: true)
    cache.outputs["Flags/A.imageset/A@2x.png"] = FileStamp(
      byteSize: 99, modified: 9_000_000_000_000_000_000, hash: "cd34")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    try cache.write(to: url)
    #expect(ProbeCache.read(at: url) == cache)
  }

  @Test("a missing, foreign or damaged file reads as an empty cache")
  func damaged() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data("{\"version\": 1}".utf8).write(to: url)
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data(
      "thumbforge-cache 6\nS\tx\tnot-a-number\t1\th\t1\t1\t0\t0\t0\t0\t1\nO\ty\t5\t6\th\n".utf8
    )
    .write(to: url)
    let cache = ProbeCache.read(at: url)
    #expect(cache.sources.isEmpty && cache.outputs["y"]?.byteSize == 5)
    // Earlier formats (no wide-gamut, metadata or frames field) are not read: their masters
    // are probed again.
    try Data("thumbforge-cache 2\nS\tx\t1\t1\th\t1\t1\t0\t0\n".utf8).write(to: url)
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data("thumbforge-cache 4\nS\tx\t1\t1\th\t1\t1\t0\t0\t0\n".utf8).write(to: url)
    #expect(ProbeCache.read(at: url) == ProbeCache())
    try Data("thumbforge-cache 5\nS\tx\t1\t1\th\t1\t1\t0\t0\t0\t0\n".utf8).write(to: url)
    #expect(ProbeCache.read(at: url) == ProbeCache())
  }

  @Test("a forced build stamps the files it rewrote, so the next build need not hash them")
  func forcedBuildStampsItsFiles() throws {
    let harness = try RenderHarness(config: "scales: [1, 2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    for name in ["Alpha", "Beta"] {
      try harness.add(
        try VipsImage.solid(width: 16, height: 16, color: [20, 200, 20]), as: "Icons/\(name).png",
        format: .png)
    }
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    let workspace = try BuildEngine(options: options).workspace
    _ = try BuildEngine(options: options).run()
    options.mode = .force
    let forced = try BuildEngine(options: options).run()
    #expect(forced.rendered == 4)
    let manifest = try #require(try ManifestStore.read(at: workspace.manifest))
    let cache = ProbeCache.read(at: workspace.state.probeCache)
    let files = manifest.imageSets.flatMap { set in
      set.outputs.map { ($0.path, $0.hash) } + [(set.folder + "/Contents.json", set.contentsHash)]
    }
    #expect(files.count == 6)
    for (path, hash) in files {
      let now = try #require(
        FileFacts.current(at: workspace.catalog.appendingPathComponent(path).path))
      #expect(cache.outputs[path] == FileStamp(now, hash: hash), "\(path)")
    }
  }

  @Test(
    "a rebuild that changes nothing keeps the cache file; a touched file, the catalog's or a web size, is stamped again; a stamp no manifest file has is dropped"
  )
  func stampsFollowTheFiles() throws {
    let harness = try WebSizesTests.harness()
    defer { harness.remove() }
    let options = WebSizesTests.options(harness)
    let workspace = try BuildEngine(options: options).workspace
    _ = try BuildEngine(options: options).run()
    let url = workspace.state.probeCache
    let built = try #require(FileFacts.current(at: url.path))
    #expect(try BuildEngine(options: options).run().rendered == 0)
    #expect(FileFacts.current(at: url.path) == built, "rewritten by a rebuild that changed nothing")
    // Touched: the same bytes at another time. Hashed again, found the same, stamped anew.
    let manifest = try #require(try ManifestStore.read(at: workspace.manifest))
    let set = try #require(manifest.imageSets.first { $0.asset == "Photos/Lake" })
    let output = try #require(set.outputs.first)
    let web = try #require(set.web?.files.first)
    let touched = [
      (key: output.path, file: workspace.catalog.appendingPathComponent(output.path), output.hash),
      (
        key: DerivedWriter.stampPrefix + web.path,
        file: workspace.state.folder.appendingPathComponent(web.path), web.hash
      ),
    ]
    for (_, file, _) in touched {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file.path)
    }
    #expect(try BuildEngine(options: options).run().rendered == 0)
    let cache = ProbeCache.read(at: url)
    for (key, file, hash) in touched {
      let now = try #require(FileFacts.current(at: file.path))
      #expect(now.modified == 1_000_000_000_000_000)
      #expect(cache.outputs[key] == FileStamp(now, hash: hash), "\(key)")
    }
    var extra = cache
    extra.outputs["Gone.imageset/Gone@2x.png"] = FileStamp(byteSize: 1, modified: 1, hash: "00")
    try extra.write(to: url)
    #expect(try BuildEngine(options: options).run().rendered == 0)
    #expect(ProbeCache.read(at: url) == cache)
  }

  @Test("0.3.0's .thumbforge-cache.json is left by a check and deleted by the next build")
  func legacyCacheFileIsDeletedByABuild() throws {
    let harness = try RenderHarness(config: "scales: [2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    try harness.add(
      try VipsImage.solid(width: 16, height: 16, color: [20, 20, 200]), as: "Blue.png",
      format: .png)
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    let workspace = try BuildEngine(options: options).workspace
    _ = try BuildEngine(options: options).run()
    let legacy = workspace.state.probeCache.deletingLastPathComponent()
      .appendingPathComponent(".thumbforge-cache.json")
    try Data("thumbforge-cache 2\n".utf8).write(to: legacy)
    options.mode = .check
    _ = try BuildEngine(options: options).run()
    #expect(FileManager.default.fileExists(atPath: legacy.path))
    options.mode = .build
    let rebuilt = try BuildEngine(options: options).run()
    #expect(rebuilt.rendered == 0)
    #expect(!FileManager.default.fileExists(atPath: legacy.path))
    #expect(FileManager.default.fileExists(atPath: workspace.state.probeCache.path))
  }
}

@Suite("File times")
struct FileTimeTests {
  @Test("a modification time before 1970 round-trips through the probe cache")
  func before1970() throws {
    var cache = ProbeCache()
    cache.sources["Old.png"] = ProbeResult(
      byteSize: 1, modified: -631_152_000_000_000_000, hash: "ab", width: 1, height: 1,
      hasAlpha: false, isPlainSRGB: true)
    cache.outputs["Old.imageset/Old@2x.png"] = FileStamp(byteSize: 1, modified: -5, hash: "cd")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    try cache.write(to: url)
    #expect(ProbeCache.read(at: url) == cache)
  }

  @Test("a master dated beyond 2262 builds instead of crashing the run")
  func beyond2262() throws {
    let far = timespec(tv_sec: 19_723_000_000, tv_nsec: 7)  // about the year 2595
    #expect(far.nanoseconds != timespec(tv_sec: 19_723_000_000, tv_nsec: 8).nanoseconds)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "far-future-\(UUID().uuidString)")
    let assets = folder.appendingPathComponent("Assets", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
    let master = assets.appendingPathComponent("Star@2x.png")
    try Fixtures.blackPNG(width: 8, height: 8).write(to: master)
    var times = [far, far]
    #expect(utimensat(AT_FDCWD, master.path, &times, 0) == 0)
    let report = try BuildEngine(options: BuildOptions(folder: assets)).run()
    #expect(report.failed == 0 && report.rendered > 0)
  }
}
