internal import Foundation

extension BuildEngine {
  struct JobOutcome: Sendable {
    var entries: [ManifestImageSet] = []
    var rendered = 0
    var failed = 0
    var problems: [Problem] = []
  }

  /// A rough measure of a job's work, to start the biggest jobs first: the pixels of each
  /// master it decodes plus the pixels of each output it resizes. (A large photo started
  /// last would leave the other cores idle at the end of the build.)
  static func estimatedCost(of job: Job, sets: [PlannedImageSet]) -> Int {
    let outputs = sets.flatMap(\.outputs).filter { $0.mode != .copy }
    let decoded = Set(outputs.map(\.master))
    let masters = (job.source.masters + job.source.darkMasters).filter {
      decoded.contains($0.path)
    }
    return masters.reduce(0) { $0 + $1.pixelSize.width * $1.pixelSize.height }
      + outputs.reduce(0) { $0 + $1.resizeTo.width * $1.resizeTo.height }
  }

  static func renderJob(
    _ job: Job, sets: [PlannedImageSet], renderer: Renderer, writer: CatalogWriter,
    previous: [String: ManifestImageSet]
  ) -> JobOutcome {
    var outcome = JobOutcome()
    let work = sets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
    let result = renderer.render(work, masters: job.source.masters + job.source.darkMasters)
    outcome.problems = result.problems
    let byPath = Dictionary(
      result.files.map { ($0.output.path, $0) }, uniquingKeysWith: { a, _ in a })
    for set in sets {
      let files = set.outputs.compactMap { byPath[$0.path] }
      guard files.count == set.outputs.count else {
        outcome.failed += set.outputs.count - files.count
        continue
      }
      do {
        outcome.entries.append(
          try writer.write(
            set: set, source: job.source, files: files, previous: previous[set.folder]))
        outcome.rendered += files.count
      } catch {
        outcome.failed += files.count
        outcome.problems.append(
          Problem(path: set.folder, reason: "cannot write: \(error.localizedDescription)"))
      }
    }
    return outcome
  }
}
