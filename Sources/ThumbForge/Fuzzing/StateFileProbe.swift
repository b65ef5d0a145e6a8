package import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

/// Reads one state file from arbitrary bytes exactly as a build does and checks what a build
/// relies on: a damaged file is rejected (an error, nil or an empty value, so the build
/// rebuilds it) and never crashes; whatever does parse survives being written and read back
/// unchanged. The entry point of the `state-files` fuzz target (`Fuzz/state-files`) and of
/// its regression tests; `package` so that nothing becomes public API.
package enum StateFileProbe {
  /// The state files, in the order the fuzz input's first byte selects them.
  package enum Kind: Int, CaseIterable, Sendable {
    /// `.thumbforge-probe-cache`
    case probeCache
    /// `.thumbforge-manifest-cache`
    case manifestCache
    /// The pending list (JSON array of imageset folders).
    case pendingList
    /// `manifest.json`
    case manifest
    /// `thumbforge.yml`
    case config
  }

  /// A property a build relies on does not hold for these bytes.
  package struct Failure: Error, CustomStringConvertible, Sendable {
    package let description: String
  }

  /// The file facts the manifest cache inputs are stamped with (the `F` line of the seeds):
  /// the reader refuses a cache written for any other manifest file.
  package static let manifestFacts = "F\t1234\t1\t2\t3"
  static let facts = FileFacts(size: 1234, modified: 1, changed: 2, inode: 3)

  /// A fuzz input: the first byte picks the kind (modulo the number of kinds), the rest is
  /// the file. Scratch files go to `directory`, which must exist.
  package static func check(fuzzInput bytes: [UInt8], directory: URL) throws(Failure) {
    guard let first = bytes.first else { return }
    let kind = Kind.allCases[Int(first) % Kind.allCases.count]
    try check(kind, Array(bytes.dropFirst()), directory: directory)
  }

  /// Reads `bytes` as a file of `kind` and checks the round trips.
  package static func check(_ kind: Kind, _ bytes: [UInt8], directory: URL) throws(Failure) {
    let file = directory.appendingPathComponent("input")
    let copy = directory.appendingPathComponent("copy")
    try? FileManager.default.removeItem(at: copy)
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else {
      throw Failure(description: "cannot write \(file.path)")
    }
    switch kind {
    case .probeCache:
      let cache = ProbeCache.read(at: file)
      try write { try cache.write(to: copy) }
      let again = ProbeCache.read(at: copy)
      try expect(again == cache, "probe cache changed on write and read: \(cache) → \(again)")
    case .manifestCache:
      let manifest = bytes.withUnsafeBufferPointer { buffer in
        var reader = ManifestCacheReader(bytes: buffer)
        return reader.manifest(expecting: facts)
      }
      if let manifest { try roundTrips(manifest, directory: directory) }
    case .pendingList:
      let folders = PendingList(url: file).read()
      try write { try PendingList(url: copy).write(folders) }
      let again = PendingList(url: copy).read()
      try expect(again == folders, "pending list changed on write and read: \(folders) → \(again)")
    case .manifest:
      if let manifest = try? ManifestStore.read(at: file) {
        try roundTrips(manifest, directory: directory)
      }
    case .config:
      // The loader refuses text that is not UTF-8 before parsing.
      guard let text = String(data: Data(bytes), encoding: .utf8) else { return }
      let config: Config
      do {
        config = try ConfigLoader.parse(text, file: "thumbforge.yml")
      } catch {
        try expect(!error.message.isEmpty, "configuration error without a message")
        _ = error.description
        return
      }
      let again = try? ConfigLoader.parse(text, file: "thumbforge.yml")
      try expect(again == config, "configuration parsed twice differs")
      try plans(config, directory: directory)
    }
  }

  /// A manifest (from either file) survives both formats: the cache and the JSON.
  private static func roundTrips(_ manifest: Manifest, directory: URL) throws(Failure) {
    let cacheBytes = ManifestCache.encode(manifest, stamp: facts)
    let fromCache = cacheBytes.withUnsafeBufferPointer { buffer in
      var reader = ManifestCacheReader(bytes: buffer)
      return reader.manifest(expecting: facts)
    }
    try expect(
      fromCache == manifest,
      "manifest cache round trip: \(manifest) → \(fromCache.map { "\($0)" } ?? "rejected")")
    let json = StateFiles(folder: directory).manifest
    try write { try ManifestStore.write(manifest, to: json) }
    let fromJSON: Manifest?
    do { fromJSON = try ManifestStore.read(at: json) } catch {
      throw Failure(description: "manifest.json written for \(manifest) is unreadable: \(error)")
    }
    try expect(fromJSON == manifest, "manifest.json round trip: \(manifest) → \(fromJSON as Any)")
  }

  /// A configuration that loads can be used: its paths checked and a source planned with
  /// every recipe (a raster and a vector master), every output at least 1×1 pixels.
  private static func plans(_ config: Config, directory: URL) throws(Failure) {
    _ = try? ConfigLoader.validatePaths(config, folder: directory, file: "thumbforge.yml")
    var config = config
    config.defaultRecipes = config.recipes.keys.sorted()
    let raster = Master(
      path: "Photos/photo@2x.jpg", scale: 2, isVector: false, isDark: false,
      fileExtension: "jpg", pixelSize: PixelSize(width: 640, height: 320), hasAlpha: false,
      isPlainSRGB: false, hash: "0", isWideGamut: true)
    let vector = Master(
      path: "Flags/flag.svg", scale: nil, isVector: true, isDark: false, fileExtension: "svg",
      pixelSize: PixelSize(width: 30, height: 20), hasAlpha: true, isPlainSRGB: true, hash: "1")
    let planner = Planner(
      config: config, vipsVersion: "8.15.1", savableFormats: [.png, .jpeg, .webp, .heif])
    let plan = planner.plan([
      AssetSource(group: ["Photos"], name: "photo", masters: [raster]),
      AssetSource(group: ["Flags"], name: "flag", masters: [vector]),
    ])
    for job in plan.jobs {
      for set in job.imageSets {
        for output in set.outputs {
          try expect(
            output.pixelSize.width >= 1 && output.pixelSize.height >= 1,
            "\(set.name): planned output \(output.fileName) is \(output.pixelSize)")
        }
      }
    }
  }

  private static func write(_ body: () throws -> Void) throws(Failure) {
    do { try body() } catch { throw Failure(description: "write failed: \(error)") }
  }

  private static func expect(_ condition: Bool, _ message: @autoclosure () -> String)
    throws(Failure)
  {
    if !condition { throw Failure(description: message()) }
  }
}
