package import ThumbForgeBasics
internal import ThumbForgeCatalog
package import ThumbForgeConfig
package import Vips

/// Turns assets and configuration into a ``BuildPlan``. Pure: no I/O, no libvips calls.
package struct Planner: Sendable {
  var config: Config
  /// libvips version (part of every recipe hash: a new libvips may change pixels).
  var vipsVersion: String
  /// Formats this libvips can write.
  package var savableFormats: Set<ImageFormat>
  /// Why a format this libvips has a saver for cannot be written all the same (AVIF without
  /// an AV1 encoder), for the problem a recipe asking for it gets.
  var unsavableReasons: [ImageFormat: String]

  package init(
    config: Config, vipsVersion: String, savableFormats: Set<ImageFormat>,
    unsavableReasons: [ImageFormat: String] = [:]
  ) {
    self.config = config
    self.vipsVersion = vipsVersion
    self.savableFormats = savableFormats
    self.unsavableReasons = unsavableReasons
  }

  /// Plans every source: which imagesets it gets (names checked for clashes, one source at a
  /// time, in name order), then each imageset's outputs and keys (sources in parallel: each
  /// depends only on its own masters and recipes). A source whose imageset name another
  /// source already has gets no imageset at all until the clash is gone (a half-written asset
  /// would hide the problem behind a catalog that builds), and the problem says what fixes it.
  package func plan(_ sources: [AssetSource]) -> BuildPlan {
    let (chosen, problems) = chooseImageSets(sources)
    var jobs = planJobs(chosen)
    let unsavable = config.web.isOn ? Self.leaveOutUnsavableWebFormats(&jobs, planner: self) : []
    let clashes = config.android.isOn ? Self.keepAndroidNamesUnique(&jobs) : []
    return BuildPlan(jobs: jobs, problems: (problems + clashes + unsavable).sorted())
  }

  /// Leaves out the web sizes in a format this libvips cannot write (AVIF without an AV1
  /// encoder), with one problem that says why; the other formats are still written.
  static func leaveOutUnsavableWebFormats(_ jobs: inout [Job], planner: Planner) -> [Problem] {
    // Only AVIF depends on how libvips was built (``Planner/savableFormats`` holds the
    // formats the recipes name, and AVIF when `web:` names it).
    let unsavable: Set<ImageFormat> =
      planner.config.web.formats.contains(.avif) && !planner.savableFormats.contains(.avif)
      ? [.avif] : []
    guard !unsavable.isEmpty else { return [] }
    for j in jobs.indices {
      for s in jobs[j].imageSets.indices {
        for o in jobs[j].imageSets[s].outputs.indices {
          jobs[j].imageSets[s].outputs[o].derived.removeAll {
            $0.destination == .web && unsavable.contains($0.format)
          }
        }
      }
    }
    return unsavable.sorted { $0.rawValue < $1.rawValue }.map { format in
      Problem(
        path: "web",
        reason:
          "formats: \(format.rawValue): \(planner.unsavableReasons[format].map { "AVIF encoding is unavailable: \($0)" } ?? "this libvips cannot write it"); the web sizes are written without it"
      )
    }
  }

  /// Leaves out the drawables of an imageset whose Android resource name an earlier one (in
  /// plan order: by asset, then recipe) has already, with a problem naming both masters: the
  /// `res` folder is flat, and two assets' files under one name would overwrite each other.
  static func keepAndroidNamesUnique(_ jobs: inout [Job]) -> [Problem] {
    var claimed: [String: (set: String, master: String)] = [:]
    var problems: [Problem] = []
    for j in jobs.indices {
      for s in jobs[j].imageSets.indices {
        guard let name = jobs[j].imageSets[s].androidResource else { continue }
        let folder = jobs[j].imageSets[s].folder
        let master = jobs[j].source.masters[0].path
        guard let other = claimed[name] else {
          claimed[name] = (folder, master)
          continue
        }
        for o in jobs[j].imageSets[s].outputs.indices {
          jobs[j].imageSets[s].outputs[o].derived.removeAll { $0.destination == .android }
        }
        jobs[j].imageSets[s].androidResource = nil
        problems.append(
          Problem(
            path: master,
            reason:
              "its Android resource name '\(name)' (\(folder)) is already that of \(other.set), from \(other.master); its drawables are not written until one of the masters is renamed"
          ))
      }
    }
    return problems
  }

  /// The imagesets of every source, chosen one source at a time in name order (so that the
  /// first in that order keeps a lookup name two sources share), with the problems of name
  /// clashes and of formats this libvips cannot write.
  private func chooseImageSets(_ sources: [AssetSource]) -> (
    chosen: [ChosenSets], problems: [Problem]
  ) {
    var chosen: [ChosenSets] = []
    var problems: [Problem] = []
    var claimed: [String: Claim] = [:]  // lookup name → claimer
    let globs = ruleGlobs
    for source in sources.sorted(by: { $0.qualifiedName < $1.qualifiedName }) {
      let choice = chooseImageSets(
        for: source, rule: rule(for: source, globs: globs), claimed: claimed)
      problems += choice.problems
      if !choice.clashes.isEmpty {
        problems += choice.clashes
        continue
      }
      for (lookup, recipe) in choice.lookups {
        claimed[lookup] = Claim(source: source, recipe: recipe)
      }
      if !choice.sets.isEmpty { chosen.append(ChosenSets(source: source, sets: choice.sets)) }
    }
    return (chosen, problems)
  }

  /// The imagesets of one source's recipes (from `rule`, else the default recipes): a name
  /// another source has `claimed`, or that two of its recipes share, is a clash; a recipe
  /// whose format cannot be written is a problem and gets no imageset.
  private func chooseImageSets(for source: AssetSource, rule: Rule?, claimed: [String: Claim])
    -> SourceChoice
  {
    var choice = SourceChoice()
    let primary = source.masters[0].path
    for name in rule?.recipes ?? config.defaultRecipes {
      guard let recipe = config.recipes[name] else { continue }
      let setName = config.imageSetName(asset: source.name, recipe: name)
      let lookup =
        config.providesNamespace ? (source.group + [setName]).joined(separator: "/") : setName
      if let other = claimed[lookup] {
        choice.clashes.append(
          NameClash(
            setName: setName, source: source, recipe: name, other: other.source,
            otherRecipe: other.recipe, providesNamespace: config.providesNamespace
          ).problem)
        continue
      }
      if let otherRecipe = choice.lookups[lookup] {
        choice.clashes.append(
          Problem(
            path: primary,
            reason:
              "recipes '\(otherRecipe)' and '\(name)' both name their imageset '\(setName)'; give the naming template 'recipe' a {recipe} placeholder (naming: { recipe: \"{asset}-{recipe}\" }); nothing of \(source.qualifiedName) is written until then"
          ))
        continue
      }
      choice.lookups[lookup] = name
      if let problem = unsavableFormatProblem(recipe, named: name, path: primary) {
        choice.problems.append(problem)
        continue
      }
      choice.sets.append(
        (recipe, setName, config.assetFocus[source.qualifiedName] ?? rule?.focus))
    }
    return choice
  }

  /// The problem of a recipe asking for a format this libvips cannot write (nil: it can, or
  /// the format is `auto`).
  private func unsavableFormatProblem(_ recipe: Recipe, named name: String, path: String)
    -> Problem?
  {
    guard recipe.format != .auto, let format = ImageFormat(rawValue: recipe.format.rawValue),
      !savableFormats.contains(format)
    else { return nil }
    return Problem(
      path: path,
      reason: format == .avif
        ? "recipe '\(name)': AVIF encoding is unavailable: \(unsavableReasons[.avif] ?? "this libvips cannot write AVIF")"
        : "recipe '\(name)': this libvips cannot write \(format.rawValue)")
  }

  /// One job per source with its chosen imagesets planned and keyed (sources in parallel).
  /// Each job's plan is encoded and hashed whole (a tenth of a millisecond for a photo's
  /// imagesets), so a few jobs are already worth another core.
  private func planJobs(_ chosen: [ChosenSets]) -> [Job] {
    ParallelMap.map(chosen, perChunk: 4) { keys, item in
      Job(
        source: item.source,
        imageSets: keys.keyed(
          item.sets.map {
            imageSet(source: item.source, recipe: $0.recipe, name: $0.name, focus: $0.focus)
          }))
    } makingState: {
      ImageSetKeyMaker(header: keyHeader)
    }
  }

  /// The rules with their globs compiled (the reader has checked every glob).
  var ruleGlobs: [(Glob, Rule)] {
    config.rules.compactMap { rule in (try? Glob(rule.match)).map { ($0, rule) } }
  }

  /// The first rule whose glob matches one of the source's masters (nil: the default
  /// recipes, no focus).
  func rule(for source: AssetSource, globs: [(Glob, Rule)]) -> Rule? {
    for (glob, rule) in globs
    where source.allMasters.contains(where: { glob.matches($0.path) }) {
      return rule
    }
    return nil
  }

  /// The focus point of `source`: its own from `assets:`, else its rule's (for plans made
  /// one imageset at a time).
  package func focus(for source: AssetSource) -> FocusPoint? {
    config.assetFocus[source.qualifiedName] ?? rule(for: source, globs: ruleGlobs)?.focus
  }

  /// What every imageset's key includes besides the imageset itself: the tool and libvips
  /// versions, the strictness of decoding and the resize strategy's parameters, which may
  /// change pixels without a plan change, and the placeholders, web sizes and Android resources asked for
  /// (which the manifest records).
  package var keyHeader: String {
    "tool=\(ToolVersion.current)\nvips=\(vipsVersion)\nfail-on=\(config.failOn.rawValue)\n"
      + "resize=\(MasterImage.strategyKey)\n"
      // Only when on, so keys without placeholders stay as they were.
      + (config.placeholders == .none ? "" : "placeholders=\(config.placeholders.rawValue)\n")
      + (config.web.isOn ? "web=\(config.web.keyText)\n" : "")
      + (config.android.isOn ? "android=\(config.android.keyText)\n" : "")
  }

  /// A warning for each master with several frames or pages, of which a build uses the
  /// first (an animated GIF or WebP becomes a still image).
  static func firstFrameOnly(_ masters: [Master], imageSet: String) -> [BuildWarning] {
    masters.filter { $0.frames > 1 }.map { master in
      let animated = ["gif", "webp"].contains(master.fileExtension)
      return BuildWarning(
        kind: .other, file: master.path, imageSet: imageSet,
        message: animated
          ? "\(master.path) is animated (\(master.frames) frames); only its first frame is used"
          : "\(master.path) has \(master.frames) pages; only its first page is used")
    }
  }

  /// One imageset of `source`, with its `Contents.json` text; its key is given by ``plan(_:)``
  /// once every imageset of the source is planned.
  package func imageSet(source: AssetSource, recipe: Recipe, name: String, focus: FocusPoint? = nil)
    -> PlannedImageSet
  {
    if recipe.kind == .appicon { return appIconSet(source: source, recipe: recipe, name: name) }
    let folder = (source.group + [name + ".imageset"]).joined(separator: "/")
    var outputs: [PlannedOutput] = []
    var notices: [BuildWarning] = []
    for (masters, appearance) in [
      (source.masters, Slot.Appearance.any), (source.darkMasters, .dark),
    ]
    where !masters.isEmpty {
      if recipe.kind == .variants && recipe.keepVector,
        let vector = masters.first(where: \.isVector)
      {
        outputs.append(
          OutputPlanner(recipe: recipe, asset: source.name, folder: folder, focus: focus)
            .keptVector(vector, appearance: appearance))
        continue
      }
      for scale in recipe.scales {
        let planned = OutputPlanner(
          recipe: recipe, asset: source.name, folder: folder, focus: focus
        )
        .output(masters: masters, slot: Slot(scale: scale, appearance: appearance))
        switch planned {
        case .output(let output, let warning):
          outputs.append(output)
          if let warning { notices.append(warning) }
          if recipe.displayGamut.contains(.displayP3),
            masters.contains(where: { $0.path == output.master && $0.isWideGamut })
          {
            outputs.append(
              OutputPlanner(recipe: recipe, asset: source.name, folder: folder).displayP3(output))
          }
        case .skipped(let reason):
          notices.append(reason)
        }
      }
    }
    notices += Self.firstFrameOnly(source.masters + source.darkMasters, imageSet: folder)
    for master in source.tintedMasters {
      notices.append(
        BuildWarning(
          kind: .unusedMaster, file: master.path, imageSet: folder,
          message:
            "\(master.path): only app icons (kind: appicon) have a tinted appearance; not used"))
    }
    let skipped = notices.filter { $0.kind == .skipped }
    var set = PlannedImageSet(
      recipe: recipe, name: name, folder: folder, outputs: outputs,
      skipped: skipped.map(\.message),
      warnings: notices.filter { $0.kind != .skipped }.map(\.message),
      focus: recipe.kind.crops ? focus : nil, contents: "", key: "")
    set.notices = notices.filter { $0.kind != .skipped } + skipped
    set.contents = CatalogContents.imageSet(ImageSetEntry(set))
    if config.placeholders != .none { set.choosePlaceholderSource() }
    set.planDerivedFiles(group: source.group, config: config, vectors: source.vectorMasters)
    return set
  }
}

extension AssetSource {
  /// The vector master of each appearance that has one.
  var vectorMasters: [Slot.Appearance: Master] {
    [.any: masters, .dark: darkMasters].compactMapValues { $0.first(where: \.isVector) }
  }
}

extension Planner {
  /// `source`'s app icon set (`Name.appiconset`), planned by ``AppIconPlanner``.
  func appIconSet(source: AssetSource, recipe: Recipe, name: String) -> PlannedImageSet {
    let folder = (source.group + [name + ".appiconset"]).joined(separator: "/")
    let icons = AppIconPlanner(recipe: recipe, asset: source.name, folder: folder).plan(source)
    var set = PlannedImageSet(
      recipe: recipe, name: name, folder: folder, outputs: icons.outputs, skipped: [],
      warnings: icons.warnings.map(\.message), focus: nil, contents: icons.contents, key: "")
    set.notices = icons.warnings
    set.planDerivedFiles(group: source.group, config: config)
    return set
  }
}

/// The source and recipe that took an imageset lookup name first.
private struct Claim: Sendable {
  var source: AssetSource
  var recipe: String
}

/// What one source's recipes give it: imagesets, the lookup names they take (with their
/// recipes), name clashes (any of which keeps the whole source out), and other problems.
private struct SourceChoice {
  var sets: [(recipe: Recipe, name: String, focus: FocusPoint?)] = []
  var lookups: [String: String] = [:]
  var clashes: [Problem] = []
  var problems: [Problem] = []
}

/// A source and the imagesets planning gives it (before their outputs are planned).
private struct ChosenSets: Sendable {
  var source: AssetSource
  var sets: [(recipe: Recipe, name: String, focus: FocusPoint?)]
}
