internal import Foundation

/// Compares a plan with the manifest and the files on disk: what must be rendered, what is
/// up to date, and what is orphaned. Reads files (stat, and hashes when a stamp changed),
/// writes nothing.
struct Staleness {
  let workspace: Workspace
  /// The previous manifest's imagesets by folder.
  let previous: [String: ManifestImageSet]
  let cache: ProbeCache
  let force: Bool
  let regenerate: [Glob]
  /// Imageset folders a killed run had started (owned although not in the manifest).
  let pending: Set<String>
  let adopt: Bool
  /// Sizes and modification times already read (see ``PreviousBuild/files``); files not
  /// in it are looked up when needed.
  var onDisk: [String: (byteSize: Int, modified: Int64)?] = [:]

  struct Decision {
    var jobIndex: Int
    var set: PlannedImageSet
    var reasons: [StaleItem]
  }

  struct Outcome {
    var toRender: [Decision] = []
    var upToDate: [(jobIndex: Int, set: PlannedImageSet, entry: ManifestImageSet)] = []
    var foreign: [Problem] = []
    var orphans: [ManifestImageSet] = []
    var kept: [ManifestImageSet] = []
    var stamps: [String: FileStamp] = [:]
  }

  func evaluate(plan: BuildPlan, unusable: Set<String>) -> Outcome {
    var outcome = Outcome()
    var planned = Set<String>()
    let catalog = workspace.catalog.path
    outcome.stamps.reserveCapacity(previous.values.reduce(0) { $0 + $1.outputs.count + 1 })
    for (index, job) in plan.jobs.enumerated() {
      let sources = (job.source.masters + job.source.darkMasters).map {
        ManifestSource(path: $0.path, hash: $0.hash)
      }
      .sorted { $0.path < $1.path }
      let forced =
        force
        || regenerate.contains {
          $0.matches(job.source.qualifiedName) || $0.matches(job.source.name)
        }
      for set in job.imageSets {
        planned.insert(set.folder)
        guard let entry = previous[set.folder] else {
          let exists = FileManager.default.fileExists(atPath: catalog + "/" + set.folder)
          if exists && !adopt && !pending.contains(set.folder) {
            outcome.foreign.append(
              Problem(
                path: set.folder,
                reason:
                  "exists in the catalog but was not made by ThumbForge; not overwritten (remove or rename it, or run with --adopt)"
              ))
            continue
          }
          outcome.toRender.append(
            Decision(
              jobIndex: index, set: set,
              reasons: [StaleItem(kind: .missing, path: set.folder, detail: "not built yet")]))
          continue
        }
        var reasons: [StaleItem] = []
        if forced { reasons.append(StaleItem(kind: .stale, path: set.folder, detail: "forced")) }
        if entry.recipeHash != set.recipeHash {
          reasons.append(
            StaleItem(
              kind: .stale, path: set.folder,
              detail: "recipe, configuration or tool version changed"))
        }
        if entry.sources != sources {
          let changed = sources.filter { !entry.sources.contains($0) }.map(\.path)
          let detail =
            changed.isEmpty
            ? "a source was removed" : "source \(changed.joined(separator: ", ")) changed"
          reasons.append(StaleItem(kind: .stale, path: set.folder, detail: detail))
        }
        reasons += fileDifferences(entry, in: catalog, stamps: &outcome.stamps)
        if reasons.isEmpty {
          outcome.upToDate.append((index, set, entry))
        } else {
          outcome.toRender.append(Decision(jobIndex: index, set: set, reasons: reasons))
        }
      }
    }
    for entry in previous.values.filter({ !planned.contains($0.folder) })
      .sorted(by: { $0.folder < $1.folder })
    {
      let present = entry.sources.contains { source in
        unusable.contains(source.path)
      }
      // A source that still exists but failed to load this run keeps its old outputs.
      if present { outcome.kept.append(entry) } else { outcome.orphans.append(entry) }
    }
    return outcome
  }

  /// Outputs and `Contents.json` missing or changed on disk since the manifest recorded them.
  private func fileDifferences(
    _ entry: ManifestImageSet, in catalog: String, stamps: inout [String: FileStamp]
  ) -> [StaleItem] {
    var items: [StaleItem] = []
    let contents = entry.folder + "/Contents.json"
    let files = entry.outputs.map { ($0.path, $0.hash) } + [(contents, entry.contentsHash)]
    for (path, hash) in files {
      let full = catalog + "/" + path
      guard let stat = onDisk[path] ?? FileStamp.current(at: full) else {
        items.append(StaleItem(kind: .missing, path: path, detail: "deleted from the catalog"))
        continue
      }
      let actual: String
      if let cached = cache.outputs[path], cached.byteSize == stat.byteSize,
        cached.modified == stat.modified
      {
        actual = cached.hash
      } else {
        actual = (try? ContentHash.ofFile(at: full)) ?? ""
      }
      stamps[path] = FileStamp(byteSize: stat.byteSize, modified: stat.modified, hash: actual)
      if actual != hash {
        items.append(
          StaleItem(kind: .modified, path: path, detail: "changed by hand since it was built"))
      }
    }
    return items
  }
}
