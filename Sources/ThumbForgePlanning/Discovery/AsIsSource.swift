internal import Foundation
internal import ThumbForgeBasics

/// A set folder of the asset folder (`Colors/Accent.colorset`, `Icons/Logo.imageset`), or a
/// group folder's `Contents.json`, found by discovery: carried into the catalog at the same
/// path as it is (the `as-is` recipe). Its files are the source's masters, hashed like any
/// master; its `Contents.json` is read as text, because it is written exactly so.
package struct AsIsSource: Hashable, Sendable {
  /// The folder, relative to the asset folder: its path in the catalog too.
  package var folder: String
  /// Its files (its own `Contents.json` included, so that an edit names it) as masters,
  /// named by the folder: group `Colors`, name `Accent.colorset`.
  package var source: AssetSource
  /// The exact text of the folder's `Contents.json`.
  package var contents: String
  /// The hash of the folder's `Contents.json`, recorded with its files.
  package var contentsHash: String
  /// Slots of an image set whose files are missing, made from larger ones (their masters
  /// are probed like any master's).
  package var derivations: [AsIsDerivation] = []

  /// Reads the carried folders `MasterCandidates` found: hashes each file (reusing the
  /// probe cache's hash of an unchanged one) and reads each folder's `Contents.json`.
  /// A folder without a readable, UTF-8 `Contents.json` is a problem naming it, and is not
  /// carried.
  static func read(
    _ carried: [String: [ScannedFile]], folder: URL, cache: ProbeCache, limitInputPixels: Int
  ) -> (
    sources: [AsIsSource], problems: [Problem], unusable: Set<String>,
    cache: [String: ProbeResult], hashed: Int
  ) {
    let folders = carried.keys.sorted()
    let read = ParallelMap.map(folders, perChunk: 16) { _, path in
      one(
        path, files: carried[path]!, folder: folder, cache: cache,
        limitInputPixels: limitInputPixels)
    } makingState: {
      ()
    }
    var sources: [AsIsSource] = []
    var problems: [Problem] = []
    var results: [String: ProbeResult] = [:]
    var hashed = 0
    var unusable = Set<String>()
    for (path, item) in zip(folders, read) {
      switch item.outcome {
      case .success(let source): sources.append(source)
      case .failure(let problem):
        problems.append(problem)
        // The folder's files exist: its entry of the last build is kept, not orphaned.
        unusable.formUnion(carried[path]!.map(\.relativePath))
      }
      results.merge(item.cache) { a, _ in a }
      hashed += item.hashed
    }
    return (sources, problems, unusable, results, hashed)
  }

  private static func one(
    _ path: String, files: [ScannedFile], folder: URL, cache: ProbeCache, limitInputPixels: Int
  ) -> (outcome: Result<AsIsSource, Problem>, cache: [String: ProbeResult], hashed: Int) {
    let contentsPath = path + "/" + SetFolder.contentsName
    guard files.contains(where: { $0.relativePath == contentsPath }) else {
      let reason = "has no Contents.json, so Xcode does not read it as a set; not copied"
      return (.failure(Problem(path: path, reason: reason)), [:], 0)
    }
    let contents: (text: String, hash: String)
    switch readContents(folder.appendingPathComponent(contentsPath), path: contentsPath) {
    case .success(let read): contents = read
    case .failure(let problem): return (.failure(problem), [:], 0)
    }
    var results: [String: ProbeResult] = [:]
    var hashed = 0
    var masters: [Master] = []
    for file in files.sorted(by: { $0.relativePath < $1.relativePath }) {
      var hash = contents.hash
      if file.relativePath != contentsPath {
        guard let known = self.hash(of: file, in: folder, cache: cache) else {
          let reason = "cannot read the file (permission denied)"
          return (.failure(Problem(path: file.relativePath, reason: reason)), [:], 0)
        }
        hash = known.hash
        if known.fresh { hashed += 1 }
      }
      results[file.relativePath] = ProbeResult(
        byteSize: file.byteSize, modified: file.modified, hash: hash, width: 0, height: 0,
        hasAlpha: false, isPlainSRGB: false)
      masters.append(
        Master(
          path: file.relativePath, scale: nil, isVector: false, isDark: false,
          fileExtension: (file.relativePath as NSString).pathExtension.lowercased(),
          pixelSize: PixelSize(width: 0, height: 0), hasAlpha: false, isPlainSRGB: false,
          hash: hash))
    }
    let derivations = AsIsDerivation.find(
      contents: contents.text, folder: path, present: Set(files.map(\.relativePath)))
    for derivation in derivations {
      switch probeSource(
        of: derivation, masters: &masters, files: files, folder: folder, cache: cache,
        limitInputPixels: limitInputPixels)
      {
      case .success(let probed?):
        results[probed.path] = probed.result
        if probed.fresh { hashed += 1 }
      case .success(nil): break
      case .failure(let problem): return (.failure(problem), [:], 0)
      }
    }
    var group = path.split(separator: "/").map(String.init)
    let name = group.removeLast()
    let source = AsIsSource(
      folder: path, source: AssetSource(group: group, name: name, masters: masters),
      contents: contents.text, contentsHash: contents.hash, derivations: derivations)
    return (.success(source), results, hashed)
  }

  /// Probes the file `derivation` is made from like any master (its size, alpha, colour),
  /// and puts it among `masters` with its scale; nil when it already is.
  private static func probeSource(
    of derivation: AsIsDerivation, masters: inout [Master], files: [ScannedFile], folder: URL,
    cache: ProbeCache, limitInputPixels: Int
  ) -> Result<(path: String, result: ProbeResult, fresh: Bool)?, Problem> {
    guard let index = masters.firstIndex(where: { $0.path == derivation.from }),
      masters[index].scale == nil,
      let file = files.first(where: { $0.relativePath == derivation.from })
    else { return .success(nil) }
    // A hash-only entry of the cache (width 0) has no header facts to reuse.
    let known = cache.sources[file.relativePath].flatMap { $0.width > 0 ? $0 : nil }
    let outcome = MasterProbe.probe(
      file: file, folder: folder, limitInputPixels: limitInputPixels, cached: known)
    return outcome.map { probed in
      masters[index] = Master(
        path: file.relativePath, scale: derivation.fromScale, isVector: false,
        isDark: derivation.isDark, fileExtension: masters[index].fileExtension,
        pixelSize: PixelSize(width: probed.width, height: probed.height),
        hasAlpha: probed.hasAlpha, isPlainSRGB: probed.isPlainSRGB, hash: probed.hash,
        isWideGamut: probed.isWideGamut, hasMetadata: probed.hasMetadata)
      return (file.relativePath, probed, known == nil)
    }
  }

  /// The text and hash of a carried folder's `Contents.json`, which must be UTF-8 (it is
  /// written back as text).
  private static func readContents(_ url: URL, path: String) -> Result<
    (text: String, hash: String), Problem
  > {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      return .failure(Problem(path: path, reason: "cannot read the file"))
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      return .failure(Problem(path: path, reason: "not UTF-8 text; the folder is not copied"))
    }
    return .success((text, ContentHash.of(data)))
  }

  /// A file's hash: the probe cache's while its size and modification time match, else read
  /// now (`fresh`); nil when it cannot be read.
  private static func hash(of file: ScannedFile, in folder: URL, cache: ProbeCache) -> (
    hash: String, fresh: Bool
  )? {
    if let known = cache.sources[file.relativePath], known.describes(file) {
      return (known.hash, false)
    }
    let path = folder.filePath(file.relativePath)
    return (try? ContentHash.ofFile(at: path)).map { ($0, true) }
  }
}
