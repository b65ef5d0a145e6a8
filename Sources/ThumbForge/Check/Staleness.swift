internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// Compares a plan with the manifest and the files on disk: what must be rendered, what is
/// up to date, and what is orphaned, in the run's mode (`force` renders every imageset;
/// `regenerate` renders exactly the selected assets and keeps everything else as it is).
/// Reads files (stat, and hashes when a stamp changed), writes nothing.
struct Staleness: Sendable {
  let workspace: Workspace
  /// The previous manifest's imagesets by folder.
  let previous: [String: ManifestImageSet]
  let cache: ProbeCache
  let mode: BuildMode
  /// `regenerate`'s patterns, compiled (empty in other modes).
  let selection: [Glob]
  /// Imageset folders a killed run had started (owned although not in the manifest).
  let pending: Set<String>
  let adopt: Bool
  /// Group folders the previous build wrote (their `Contents.json` is ThumbForge's).
  var ownedGroups: Set<String> = []
  /// Why imageset keys differ from the manifest's, when the run can tell for all of them
  /// (another ThumbForge, libvips or configuration than the manifest records); nil: the same
  /// tool and configuration, so a key changed with its imageset's own plan.
  var keyChange: String? = nil
  /// When the configuration changed: the previous manifest's recipe settings, to name the
  /// keys that changed (empty otherwise).
  var recipesBefore: [String: [String: String]] = [:]
  /// When the configuration changed: the previous manifest's key settings (see
  /// ``Config/keySettings``) and today's, to name the one that changed (nil otherwise).
  var settingsChange: KeySettingsChange? = nil
  /// The masters the previous build failed to render, with why (its manifest's `failed`).
  var failedBefore: [String: String] = [:]

  struct Decision: Sendable {
    var jobIndex: Int
    var set: PlannedImageSet
    var reasons: [StaleItem]
  }

  struct Outcome: Sendable {
    var toRender: [Decision] = []
    /// Up-to-date imagesets: their manifest entries (kept as they are) and output counts.
    var upToDate: [(outputs: Int, entry: ManifestImageSet)] = []
    var foreign: [Problem] = []
    var orphans: [ManifestImageSet] = []
    var kept: [ManifestImageSet] = []
    /// The stamps of the files judged whose cached stamp no longer held (hashed again).
    var stamps: [String: FileStamp] = [:]
    /// The files judged whose cached stamp held: ``ProbeCache/outputs``' keys, kept as they
    /// are (a list, as a run that changes nothing rewrites no stamp).
    var reusedStamps: [String] = []
    /// `regenerate` patterns that matched no asset.
    var unmatched: [Problem] = []
    /// Group folders ThumbForge owns whose `Contents.json` is missing or would change.
    var groups: [StaleItem] = []
    /// The previous build's failures of masters this run does not try (not selected by
    /// `regenerate`), which the manifest keeps.
    var keptFailures: [ManifestFailure] = []
  }

  /// `mode`'s selection of assets, compiled; a bad pattern is a usage error.
  static func selection(for mode: BuildMode) throws(ConfigError) -> [Glob] {
    var globs: [Glob] = []
    for pattern in mode.patterns {
      do { globs.append(try Glob(pattern)) } catch {
        throw ConfigError(file: "regenerate", line: nil, key: "", message: error.message)
      }
    }
    return globs
  }

  /// Whether `regenerate`'s selection names the job's asset (always, in other modes).
  private func selects(_ job: Job) -> Bool {
    guard mode.isRegenerate else { return true }
    return selection.contains {
      $0.matches(job.source.qualifiedName) || $0.matches(job.source.name)
    }
  }

  /// Decides every planned imageset, then sorts the previous build's other imagesets into
  /// orphans and kept ones, and checks the owned group folders and `regenerate`'s patterns.
  func evaluate(plan: BuildPlan, unusable: Set<String>) -> Outcome {
    // Jobs are judged in parallel (each reads only its own files and entries), then
    // gathered in plan order.
    // Files are looked up relative to their open folders.
    let folders = Folders(workspace)
    let judged = ParallelMap.chunked(count: plan.jobs.count) { range in
      var part = Outcome()
      for index in range {
        let job = plan.jobs[index]
        let sources = job.source.manifestSources
        let selected = selects(job)
        let recipes = job.imageSets.map(\.recipe.name)
        if !selected {
          part.keptFailures += sources.compactMap { source in
            failedBefore[source.path].map { ManifestFailure(path: source.path, reason: $0) }
          }
        }
        for set in job.imageSets {
          judge(
            set, jobIndex: index, sources: sources, recipes: recipes,
            asset: job.source.qualifiedName, selected: selected, folders: folders, into: &part)
        }
      }
      return part
    }
    var outcome = Outcome()
    for part in judged {
      outcome.toRender += part.toRender
      outcome.upToDate += part.upToDate
      outcome.foreign += part.foreign
      outcome.kept += part.kept
      outcome.stamps.merge(part.stamps) { _, new in new }
      outcome.reusedStamps += part.reusedStamps
      outcome.keptFailures += part.keptFailures
    }
    let planned = Set(plan.jobs.lazy.flatMap { $0.imageSets.map(\.folder) })
    for entry in previous.values.filter({ !planned.contains($0.folder) })
      .sorted(by: { $0.folder < $1.folder })
    {
      // A source that still exists but failed to load this run keeps its old outputs, and
      // regenerate removes nothing.
      let present = entry.sources.contains { unusable.contains($0.path) }
      if present || mode.isRegenerate {
        outcome.kept.append(entry)
      } else {
        outcome.orphans.append(entry)
      }
    }
    outcome.groups = groupDifferences(plan: plan)
    outcome.unmatched = unmatchedPatterns(plan: plan)
    return outcome
  }

  /// One planned imageset: not ours (foreign), new, up to date, kept (not selected by
  /// `regenerate`) or to render, with the reasons.
  private func judge(
    _ set: PlannedImageSet, jobIndex: Int, sources: [ManifestSource], recipes: [String],
    asset: String, selected: Bool, folders: Folders, into outcome: inout Outcome
  ) {
    guard let entry = previous[set.folder] else {
      let exists = FileManager.default.fileExists(atPath: workspace.catalog.path + "/" + set.folder)
      if exists && !adopt && !pending.contains(set.folder)
        && !holdsAlready(set, sources: sources)
      {
        outcome.foreign.append(
          Problem(
            path: set.folder,
            reason:
              "exists in the catalog but was not made by ThumbForge; not overwritten (remove or rename it, or run with --adopt)"
          ))
      } else if selected {
        let failure = sources.lazy.compactMap { source in
          failedBefore[source.path].map { "\(source.path) failed in the last build: \($0)" }
        }.first
        outcome.toRender.append(
          Decision(
            jobIndex: jobIndex, set: set,
            reasons: [
              StaleItem(kind: .missing, path: set.folder, detail: failure ?? "not built yet")
            ]))
      }
      return
    }
    var reasons: [StaleItem] = []
    let forced = mode == .force || (mode.isRegenerate && selected)
    if forced { reasons.append(StaleItem(kind: .stale, path: set.folder, detail: "forced")) }
    let sourcesChanged = entry.sources != sources
    if sourcesChanged {
      let changed = sources.filter { !entry.sources.contains($0) }.map(\.path)
      let named = changed.isEmpty ? nil : "source \(changed.joined(separator: ", ")) changed"
      reasons.append(
        StaleItem(kind: .stale, path: set.folder, detail: named ?? "a source was removed"))
    }
    // Each cause once: a changed source explains its own key change; a changed key
    // explains a plan of other files or sizes than the manifest records.
    let keyChanged = entry.recipeHash != set.key
    if keyChanged && (keyChange != nil || !sourcesChanged) {
      reasons.append(
        StaleItem(kind: .stale, path: set.folder, detail: keyDetail(recipes, asset: asset)))
    }
    if !keyChanged && !records(entry, set) {
      reasons.append(
        StaleItem(
          kind: .modified, path: set.folder,
          detail: "the manifest records other files or sizes than the plan"))
    }
    reasons += fileDifferences(entry, in: folders, into: &outcome)
    if reasons.isEmpty {
      outcome.upToDate.append((set.outputs.count, entry))
    } else if !selected {
      outcome.kept.append(entry)  // regenerate leaves the other assets as they are
    } else {
      outcome.toRender.append(Decision(jobIndex: jobIndex, set: set, reasons: reasons))
    }
  }

  /// Why a key changed: ``keyChange``, with the keys of the job's recipes and the other
  /// settings of the asset that changed when it is the configuration (`recipe 'flag': radius
  /// 5 → 6`, `master-scale 3 → 2`).
  private func keyDetail(_ recipes: [String], asset: String) -> String {
    guard let keyChange else { return "its recipe or the plan of its master changed" }
    var changes = Set(recipes).sorted().compactMap { name -> String? in
      guard let before = recipesBefore[name], let now = workspace.config.recipes[name] else {
        return nil
      }
      let changed = Recipe.changes(from: before, to: now.settings)
      return changed.isEmpty ? nil : "recipe '\(name)': \(changed.joined(separator: ", "))"
    }
    if let changed = settingsChange?.changes(for: asset), !changed.isEmpty {
      changes.append(changed.joined(separator: ", "))
    }
    return changes.isEmpty ? keyChange : "\(keyChange): \(changes.joined(separator: "; "))"
  }

  /// Whether the catalog already holds the carried set `set` byte for byte as its masters
  /// are (a catalog adopted in place, built for the first time, perhaps after some smaller
  /// scales were deleted to be made): then it is not foreign.
  private func holdsAlready(_ set: PlannedImageSet, sources: [ManifestSource]) -> Bool {
    guard set.recipe.kind == .asIs else { return false }
    let catalog = workspace.catalog.path + "/"
    let hashes = Dictionary(sources.map { ($0.path, $0.hash) }, uniquingKeysWith: { a, _ in a })
    let contents = try? ContentHash.ofFile(at: catalog + set.folder + "/Contents.json")
    guard contents == ContentHash.of(Data(set.contents.utf8)) else { return false }
    // Slots made from a larger file (their own was deleted from the asset folder) are the
    // build's to write; the copied files say whether the catalog is the adopted one.
    return set.outputs.filter { $0.mode == .copy }.allSatisfy {
      (try? ContentHash.ofFile(at: catalog + $0.path)) == hashes[$0.master]
    }
  }

  /// Whether `entry` records exactly the files and pixel sizes `set` plans (a build writes
  /// what it planned; a manifest edited by hand may not say so).
  static func recordsPlan(
    _ entry: ManifestImageSet, of set: PlannedImageSet, web: String?, android: String?
  ) -> Bool {
    guard entry.outputs.count == set.outputs.count,
      recordsDerived(entry.web, of: set, .web, at: web),
      recordsDerived(entry.android, of: set, .android, at: android)
    else { return false }
    let recorded = Set(
      entry.outputs.map { RecordedSize(path: $0.path, width: $0.width, height: $0.height) })
    return set.outputs.allSatisfy {
      recorded.contains(
        RecordedSize(path: $0.path, width: $0.pixelSize.width, height: $0.pixelSize.height))
    }
  }

  /// ``recordsPlan(_:of:web:android:)`` with this run's folders beside the catalog.
  private func records(_ entry: ManifestImageSet, _ set: PlannedImageSet) -> Bool {
    Self.recordsPlan(
      entry, of: set, web: workspace.webRelativeToManifest,
      android: workspace.androidRelativeToManifest)
  }

  /// Whether `recorded` records exactly the files (and web JSON) `set` plans for
  /// `destination` in its folder at `prefix` from the manifest's (none: none).
  private static func recordsDerived(
    _ recorded: ManifestDerived?, of set: PlannedImageSet,
    _ destination: DerivedFile.Destination, at prefix: String?
  ) -> Bool {
    let planned = set.derivedFiles(destination)
    guard let recorded, let prefix, !planned.isEmpty else {
      return recorded == nil && (prefix == nil || planned.isEmpty)
    }
    // Only the web sizes have a JSON.
    let json = destination == .web ? set.webJSON.map { prefix + $0 } : nil
    guard recorded.json == json else { return false }
    // As written, in the plan's order: compared in place, without a set.
    var count = 0
    var inOrder = true
    for plan in planned {
      if inOrder {
        inOrder = count < recorded.files.count
        if inOrder {
          let file = recorded.files[count]
          inOrder =
            file.width == plan.pixelSize.width && file.height == plan.pixelSize.height
            && Self.path(file.path, is: prefix, then: plan.path)
        }
      }
      count += 1
    }
    guard count == recorded.files.count else { return false }
    if inOrder { return true }
    let sizes = Set(
      recorded.files.map { RecordedSize(path: $0.path, width: $0.width, height: $0.height) })
    return planned.allSatisfy {
      sizes.contains(
        RecordedSize(
          path: prefix + $0.path, width: $0.pixelSize.width, height: $0.pixelSize.height))
    }
  }

  /// Whether `path` is `prefix` followed by `rest`, compared byte for byte without joining them.
  private static func path(_ path: String, is prefix: String, then rest: String) -> Bool {
    var path = path
    var prefix = prefix
    var rest = rest
    return path.withUTF8 { whole in
      prefix.withUTF8 { head in
        rest.withUTF8 { tail in
          whole.count == head.count + tail.count
            && whole.prefix(head.count).elementsEqual(head)
            && whole.suffix(tail.count).elementsEqual(tail)
        }
      }
    }
  }

  private struct RecordedSize: Hashable {
    var path: String
    var width: Int
    var height: Int
  }

  /// `regenerate` patterns that match no asset of the plan.
  private func unmatchedPatterns(plan: BuildPlan) -> [Problem] {
    zip(mode.patterns, selection).compactMap { pattern, glob in
      plan.jobs.contains { glob.matches($0.source.qualifiedName) || glob.matches($0.source.name) }
        ? nil : Problem(path: pattern, reason: "no asset matches this name")
    }
  }

  /// Owned group folders of the plan whose `Contents.json` is missing or not what a build
  /// writes (`provides-namespace` changed, or edited by hand).
  private func groupDifferences(plan: BuildPlan) -> [StaleItem] {
    let expected = Array(
      CatalogContents.group(providesNamespace: workspace.config.providesNamespace).utf8)
    var carried = Set<String>()
    var rendered: [[String]] = []
    for job in plan.jobs {
      if job.imageSets.first?.recipe.kind == .asIs {
        carried.insert(job.imageSets[0].folder)
      } else {
        rendered.append(job.source.group)
      }
    }
    let groups = GroupFolders.paths(of: rendered).subtracting(carried)
    return groups.intersection(ownedGroups).sorted().compactMap { group in
      let path = group + "/Contents.json"
      guard let bytes = FileManager.default.contents(atPath: workspace.catalog.path + "/" + path)
      else { return StaleItem(kind: .missing, path: path, detail: "deleted from the catalog") }
      return Array(bytes) == expected
        ? nil : StaleItem(kind: .stale, path: path, detail: "group settings changed")
    }
  }

  /// The folders the files judged are looked up in: the catalog (outputs and `Contents.json`)
  /// and the manifest's folder (the files of the destinations beside the catalog).
  struct Folders: Sendable {
    let catalog: OpenFolder
    let base: OpenFolder

    init(_ workspace: Workspace) {
      catalog = OpenFolder(path: workspace.catalog.path)
      base = OpenFolder(path: workspace.state.folder.path)
    }
  }

  /// Outputs, `Contents.json` and the files of the destinations beside the catalog missing
  /// or changed on disk since the manifest recorded them.
  private func fileDifferences(
    _ entry: ManifestImageSet, in folders: Folders, into outcome: inout Outcome
  ) -> [StaleItem] {
    var items: [StaleItem] = []
    entry.forEachListedFile { file in
      let folder = file.folder(catalog: folders.catalog, base: folders.base)
      guard let facts = FileFacts.current(at: file.path, in: folder) else {
        let place = file.destination.map { "\($0.rawValue) folder" } ?? "catalog"
        items.append(
          StaleItem(kind: .missing, path: file.path, detail: "deleted from the \(place)"))
        return
      }
      let key = file.stampKey
      let actual: String
      if let cached = cache.outputs[key], cached.matches(facts) {
        actual = cached.hash
        outcome.reusedStamps.append(key)
      } else {
        actual = (try? ContentHash.ofFile(at: folder.path + "/" + file.path)) ?? ""
        outcome.stamps[key] = FileStamp(facts, hash: actual)
      }
      if actual != file.hash {
        items.append(
          StaleItem(kind: .modified, path: file.path, detail: "changed by hand since it was built"))
      }
    }
    return items
  }
}
