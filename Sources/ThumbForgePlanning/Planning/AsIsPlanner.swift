internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import Vips

extension Planner {
  /// The jobs of the set folders (and group `Contents.json` files) carried as they are: one
  /// job each, whose imageset is the folder at the same path in the catalog, with its
  /// `Contents.json` text as written and one copied output per other file. A folder whose
  /// path an imageset of `planned` also takes is a problem naming both, and is not carried
  /// (the rendered imageset keeps its place).
  package func asIsJobs(_ sources: [AsIsSource], besides planned: [Job]) -> (
    jobs: [Job], problems: [Problem]
  ) {
    guard let recipe = config.recipes[RecipeKind.asIs.rawValue], !sources.isEmpty else {
      return ([], [])
    }
    var taken: [String: String] = [:]
    for job in planned {
      for set in job.imageSets { taken[set.folder] = job.source.allMasters.first?.path }
    }
    var problems: [Problem] = []
    var kept: [AsIsSource] = []
    for source in sources {
      if let other = taken[source.folder] {
        problems.append(
          Problem(
            path: source.folder,
            reason:
              "\(other) makes the same set; the folder is not copied until one of them is renamed or removed"
          ))
      } else {
        kept.append(source)
      }
    }
    let keys = keyHeader
    let jobs = ParallelMap.map(kept, perChunk: 64) { maker, source in
      Job(source: source.source, imageSets: maker.keyed([asIsSet(source, recipe: recipe)]))
    } makingState: {
      ImageSetKeyMaker(header: keys)
    }
    return (jobs, problems)
  }

  /// The imageset of one carried folder: every file but its own `Contents.json` is an
  /// output copied from itself (see ``Renderer``'s `carried`), and each slot whose file
  /// was deleted (``AsIsDerivation``) is rendered from the larger file of its slot.
  private func asIsSet(_ source: AsIsSource, recipe: Recipe) -> PlannedImageSet {
    let own = source.folder + "/" + SetFolder.contentsName
    let outputs = source.source.masters.filter { $0.path != own }.map { master in
      PlannedOutput(
        slot: Slot(scale: Slot.singleScale), pixelSize: master.pixelSize,
        resizeTo: master.pixelSize, crop: nil, master: master.path, mode: .copy,
        format: ImageFormat(fileExtension: master.fileExtension) ?? .png,
        fileName: String(master.path.dropFirst(source.folder.count + 1)), path: master.path,
        upscale: nil)
    }
    let derived = source.derivations.compactMap { derivation -> PlannedOutput? in
      guard let master = source.source.masters.first(where: { $0.path == derivation.from }),
        master.scale == derivation.fromScale,
        let format = ImageFormat(
          fileExtension: (derivation.fileName as NSString).pathExtension.lowercased())
      else { return nil }
      let size = master.pointSize.pixels(scale: derivation.scale)
      var output = PlannedOutput(
        slot: Slot(scale: derivation.scale, appearance: derivation.isDark ? .dark : .any),
        pixelSize: size, resizeTo: size, crop: nil, master: master.path, mode: .render,
        format: format, fileName: derivation.fileName,
        path: source.folder + "/" + derivation.fileName, upscale: nil)
      output.finish = OutputFinish.plan(recipe: recipe, output: output, master: master)
      output.cost = RenderCost.planned(
        master: master, resizeTo: size, pixelSize: size, cut: output.finish.cut)
      return output
    }
    return PlannedImageSet(
      recipe: recipe, name: source.source.name, folder: source.folder,
      outputs: outputs + derived, skipped: [], warnings: [], focus: nil,
      contents: source.contents, key: "")
  }
}
