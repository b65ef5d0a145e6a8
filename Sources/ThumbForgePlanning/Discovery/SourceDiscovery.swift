internal import ThumbForgeBasics
package import ThumbForgeCatalog
internal import ThumbForgeConfig

/// Finds and probes every master of an asset folder (the effectful half of planning).
package enum SourceDiscovery {
  package struct Result: Sendable {
    package var sources: [AssetSource]
    package var problems: [Problem]
    /// Paths of files that exist but could not be used this run.
    package var unusable: Set<String>
    package var cache: [String: ProbeResult]
    /// Whether `cache` equals the probe cache's `sources` as read (every entry reused, none
    /// dropped), so that the cache need not be compared entry by entry.
    package var cacheUnchanged = false
    /// Files of the folder that are not masters, each with why (not built; not a failure).
    package var notes: [Problem] = []
    /// Set folders and group `Contents.json` files carried into the catalog as they are.
    package var asIs: [AsIsSource] = []
    /// The folder's own `Contents.json` (asset-folder-relative), the catalog root's.
    var rootContents: String?
  }

  /// The first step of discovery, which reads no file: the folder's files, and those that
  /// are masters by their names (`lint` stops here).
  package static func candidates(of workspace: Workspace) -> (
    scan: (files: [ScannedFile], problems: [Problem]), sorted: MasterCandidates
  ) {
    let scan = FolderScanner.scan(
      folder: workspace.folder, skipping: workspace.skippedPaths, confined: workspace.confined)
    let sorted = MasterCandidates(
      files: scan.files, folder: workspace.folder, darkSuffix: workspace.config.darkSuffix)
    return (scan, sorted)
  }

  static func discover(_ workspace: Workspace, cache: ProbeCache, width: Int) -> Result {
    discover(workspace, cache: { cache }, width: width)
  }

  /// Like ``discover(_:cache:width:)``, asking for the cache only once the folder is
  /// scanned, so that it can be read meanwhile.
  package static func discover(
    _ workspace: Workspace, cache readCache: () -> ProbeCache, width: Int
  ) -> Result {
    let config = workspace.config
    let (scan, sorted) = candidates(of: workspace)
    let cache = readCache()
    var problems = scan.problems + sorted.problems
    let notes = sorted.notes
    let candidates = sorted.candidates.map { ($0.file, $0.name, $0.group) }
    let folder = workspace.folder
    let limit = config.limitInputPixels
    // Unchanged files are answered from the cache right here; only the others go to the work
    // queue, where each item costs more than such a lookup.
    var outcomes = candidates.map { file, _, _ in
      MasterProbe.reuse(cache.sources[file.relativePath], file: file, limitInputPixels: limit)
    }
    let changed = outcomes.indices.filter { outcomes[$0] == nil }
    let probe = { @Sendable (file: ScannedFile) in
      MasterProbe.probe(file: file, folder: folder, limitInputPixels: limit, cached: nil)
    }
    let probed = WorkQueue(width: width).run(changed.map { candidates[$0].0 }, body: probe) {
      _, _ in
    } retrySerially: { file, outcome in
      if case .failure = outcome { return probe(file) }
      return nil
    }
    for (index, result) in zip(changed, probed) { outcomes[index] = result }
    var masters: [AssetGrouper.Entry] = []
    var unusable = Set<String>()
    var newCache: [String: ProbeResult] = [:]
    for (index, (file, name, group)) in candidates.enumerated() {
      switch outcomes[index] {
      case .success(let result):
        newCache[file.relativePath] = result
        masters.append(
          AssetGrouper.Entry(
            master: master(file, name, result, masterScale: config.masterScale), group: group,
            asset: name.asset))
      case .failure(let problem):
        problems.append(problem)
        unusable.insert(file.relativePath)
      case nil:
        break
      }
    }
    let grouped = AssetGrouper.group(masters)
    let carried = AsIsSource.read(
      sorted.carried, folder: folder, cache: cache, limitInputPixels: limit)
    newCache.merge(carried.cache) { a, _ in a }
    return Result(
      sources: grouped.assets, problems: (problems + grouped.problems + carried.problems).sorted(),
      unusable: unusable.union(carried.unusable), cache: newCache,
      cacheUnchanged: changed.isEmpty && carried.hashed == 0
        && newCache.count == cache.sources.count,
      notes: notes, asIs: carried.sources, rootContents: sorted.rootContents?.relativePath)
  }

  /// The master a probed file is.
  private static func master(
    _ file: ScannedFile, _ name: MasterName, _ result: ProbeResult, masterScale: Int
  ) -> Master {
    Master(
      path: file.relativePath, scale: name.isVector ? nil : (name.scale ?? masterScale),
      isVector: name.isVector, isDark: name.isDark, fileExtension: name.fileExtension,
      pixelSize: PixelSize(width: result.width, height: result.height),
      hasAlpha: result.hasAlpha || name.isVector, isPlainSRGB: result.isPlainSRGB,
      hash: result.hash, isTinted: name.isTinted,
      isWideGamut: result.isWideGamut && !name.isVector,
      hasMetadata: result.hasMetadata && !name.isVector, frames: result.frames)
  }
}
