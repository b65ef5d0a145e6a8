package import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
package import ThumbForgeConfig
internal import ThumbForgePlanning
package import ThumbForgeRendering
package import Vips

/// An asset folder as `thumbforge serve` sees it: discovered and planned exactly as `build`
/// would, at one moment. Immutable; a server loads a new one when the folder changes
/// (``reloaded()``).
///
/// A request names an asset, a recipe, a scale and a format. When the catalog's plan holds
/// that output, the request renders the asset's whole job, as `build` does — decoding depends
/// on every output of the job (shrink-on-load, the half-size copy) — so the bytes are the
/// catalog's. Anything else (another scale or format, a recipe the rules do not give the
/// asset, an ad-hoc box) is planned as a job of its own.
package struct OnDemandFolder: Sendable {
  let workspace: Workspace
  let planner: Planner
  /// Planned jobs by the asset's qualified name.
  let jobs: [String: Job]
  /// Discovery problems by the qualified name of the asset their file would belong to.
  let problems: [String: Problem]
  /// The last build's imagesets by folder (to send up-to-date outputs from the catalog).
  let previous: [String: ManifestImageSet]
  let signature: FolderSignature
  /// The manifest's version when loaded (a build may replace it).
  let manifestFacts: FileFacts?

  /// Discovers and plans the folder of `options` (its configuration, catalog and manifest).
  package static func load(_ options: BuildOptions) throws(ConfigError) -> OnDemandFolder {
    try load(Workspace.resolve(options))
  }

  /// Loads `workspace` as a server sees it: symbolic links leaving the folder are skipped,
  /// and an untrusted folder gets the lower pixel limit unless the file sets one.
  ///
  /// An untrusted folder has libvips' untrusted loaders (SVG, PDF, ImageMagick …) blocked
  /// before its first file is read, so not even the scan's header reads run them: such a
  /// master is reported as undecodable and never parsed. Blocking is process-wide and never
  /// lifted by a reload.
  static func load(_ workspace: Workspace) throws(ConfigError) -> OnDemandFolder {
    let workspace = serving(workspace)
    if workspace.config.serve.untrustedSources { Vips.blockUntrustedLoaders(true) }
    let signature = FolderSignature.of(workspace)
    let manifestFacts = FileFacts.current(at: workspace.manifest.path)
    let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let folder = PlannedFolder.discover(
      workspace, formats: .every, cache: { ProbeCache.read(at: workspace.state.probeCache) },
      width: width)
    var problems: [String: Problem] = [:]
    for problem in folder.found.problems {
      if let asset = MasterName.assetName(
        ofFile: problem.path, darkSuffix: workspace.config.darkSuffix)
      {
        problems[asset] = problem
      }
    }
    let previous = (try? PreviousBuild.load(workspace))?.imageSets ?? [:]
    return OnDemandFolder(
      workspace: workspace, planner: folder.planner,
      jobs: Dictionary(
        folder.plan.jobs.map { ($0.source.qualifiedName, $0) }, uniquingKeysWith: { a, _ in a }),
      problems: problems, previous: previous, signature: signature,
      manifestFacts: manifestFacts)
  }

  /// `workspace` as a server reads it: confined to the folder, and with the lower pixel
  /// limit when its sources are untrusted and the file sets no limit.
  static func serving(_ workspace: Workspace) -> Workspace {
    var workspace = workspace
    workspace.confined = true
    if workspace.config.serve.untrustedSources && !workspace.config.limitInputPixelsIsSet {
      workspace.config.limitInputPixels = ServeSettings.untrustedPixelLimit
    }
    return workspace
  }

  /// What a reload compares: the folder's listing (masters and configuration) and the
  /// catalog's manifest, as they are when looked at.
  package struct Look: Equatable, Sendable {
    let folder: FolderSignature
    let manifest: FileFacts?
  }

  /// The folder and manifest as they are now.
  package func look() -> Look {
    Look(
      folder: FolderSignature.of(workspace),
      manifest: FileFacts.current(at: workspace.manifest.path))
  }

  /// Whether `look` differs from the folder and manifest this one was loaded from.
  package func differs(from look: Look) -> Bool {
    look != Look(folder: signature, manifest: manifestFacts)
  }

  /// The folder loaded again when any master, the configuration or the catalog's manifest
  /// changed since this one was loaded; `nil` when nothing did.
  package func reloaded() throws(ConfigError) -> OnDemandFolder? {
    guard differs(from: look()) else { return nil }
    return try Self.load(
      Workspace.resolve(
        Workspace.Request(
          folder: workspace.folder, configFile: workspace.configFile, output: workspace.catalog)))
  }

  /// The configuration the folder was planned with.
  package var config: Config { workspace.config }

  /// The asset folder.
  package var folder: URL { workspace.folder }

  /// Every asset's qualified name, sorted.
  package var assets: [String] { jobs.keys.sorted() }

  /// The recipes the catalog's plan gives `asset`, in plan order.
  package func recipes(of asset: String) -> [String] {
    jobs[asset]?.imageSets.map(\.recipe.name) ?? []
  }

  /// The outputs the catalog's plan gives `asset`, each as a request names it: recipe,
  /// format, and the slot, whose ``Slot/fileSuffix`` the request adds to the asset's name
  /// (`""`, `~dark`, `~P3` or `~dark~P3`) and whose scale it asks for (see
  /// ``request(asset:recipe:scale:format:)``). Single-scale files are not requested.
  package func catalogOutputs(of asset: String) -> [(
    recipe: String, format: ImageFormat, slot: Slot
  )] {
    (jobs[asset]?.imageSets ?? []).flatMap { set in
      set.outputs.filter { $0.slot.scale != Slot.singleScale }.map {
        (set.recipe.name, $0.format, $0.slot)
      }
    }
  }

  /// Resolves a request to the output it names. `asset` may carry the catalog's file-name
  /// suffixes, `~dark` (the dark appearance) and then `~P3` (the Display P3 file of a
  /// wide-gamut master): `Flags/Italy~dark~P3` names what the catalog writes as
  /// `Italy~dark~P3@2x.png`. A name that is an asset as it stands is never split.
  /// `format` nil: the format the recipe's `auto` gives (the catalog's file when it has one).
  package func request(
    asset name: String, recipe: RecipeRequest, scale: Int, format: ImageFormat?
  ) throws(OnDemandError) -> OnDemandRequest {
    let (asset, slot) = variant(named: name, scale: scale)
    guard let job = jobs[asset] else {
      switch problems[asset]?.kind {
      case .tooLarge: throw .tooLarge(problems[asset]!.description)
      case .undecodable: throw .undecodable(problems[asset]!.description)
      case .other, nil: throw .unknownAsset(name)
      }
    }
    if let format, !planner.savableFormats.contains(format) {
      throw .unsupportedFormat(format.rawValue)
    }
    let wanted = { (output: PlannedOutput) in output.slot == slot }
    let chosen = try self.recipe(recipe)
    if let set = job.imageSets.first(where: { $0.recipe == chosen }),
      let output = set.outputs.first(where: { wanted($0) && (format == nil || $0.format == format) }
      )
    {
      return try bounded(OnDemandRequest(asset: asset, job: job, set: set, output: output))
    }
    var single = chosen
    single.scales = [scale]
    single.format = format.flatMap { OutputFormat(rawValue: $0.rawValue) } ?? chosen.format
    single.keepVector = false
    // sRGB files always; the Display P3 one only when the request names it.
    single.displayGamut = slot.gamut == .sRGB ? [.sRGB] : [.sRGB, slot.gamut]
    let name = config.imageSetName(asset: job.source.name, recipe: chosen.name)
    let set = ImageSetKeyMaker(header: planner.keyHeader).keyed([
      planner.imageSet(
        source: job.source, recipe: single, name: name, focus: planner.focus(for: job.source))
    ])[0]
    guard let output = set.outputs.first(where: wanted) else {
      throw .noSuchOutput(
        Self.missingVariant(asset: job.source, slot: slot, darkSuffix: config.darkSuffix)
          // Not the planner's reason: it names the master file and its size, which a
          // response body never does (paths stay in the log).
          ?? "\(recipe.text) makes no \(scale)x output of this asset"
      )
    }
    let alone = Job(source: job.source, imageSets: [set])
    return try bounded(OnDemandRequest(asset: asset, job: alone, set: set, output: output))
  }

  /// `request`, when its render makes no output over `serve.max-output-pixels` (it renders
  /// the whole job, so every output counts).
  private func bounded(_ request: OnDemandRequest) throws(OnDemandError) -> OnDemandRequest {
    let limit = config.serve.maxOutputPixels
    for set in request.job.imageSets {
      if let output = set.outputs.first(where: { $0.cost.output > limit }) {
        throw .tooLarge(
          "\(output.path): the output (\(output.pixelSize)) is over serve.max-output-pixels (\(limit))"
        )
      }
    }
    return request
  }

  /// The asset and slot a request's name and scale give: the name itself (any appearance,
  /// sRGB) when it is an asset (or a file with a problem), else the name less the suffixes
  /// ``Slot/parse(requestName:scale:)`` reads.
  private func variant(named name: String, scale: Int) -> (asset: String, slot: Slot) {
    let plain = (name, Slot(scale: scale))
    guard jobs[name] == nil, problems[name] == nil else { return plain }
    return Slot.parse(requestName: name, scale: scale) ?? plain
  }

  /// Why `source` has no output of `slot`'s appearance and gamut at all, if that is why.
  private static func missingVariant(asset source: AssetSource, slot: Slot, darkSuffix: String)
    -> String?
  {
    let isDark = slot.appearance == .dark
    let masters = isDark ? source.darkMasters : source.masters
    if isDark && masters.isEmpty {
      return "\(source.qualifiedName) has no dark appearance (no \(darkSuffix) master)"
    }
    if slot.gamut == .displayP3 && !masters.contains(where: \.isWideGamut) {
      return
        "\(source.qualifiedName) has no Display P3 file: its master's colours are all within sRGB"
    }
    return nil
  }

  /// The recipe a request names: one of the configuration's, or an ad-hoc box.
  private func recipe(_ request: RecipeRequest) throws(OnDemandError) -> Recipe {
    switch request {
    case .named(let name):
      guard let recipe = config.recipes[name] else { throw .unknownRecipe(name) }
      guard recipe.kind.makesImageSet else {
        let what =
          recipe.kind == .asIs
          ? "carries set folders into the catalog as they are" : "makes an app icon set"
        throw .noSuchOutput("'\(name)' \(what), which is in the catalog, not served")
      }
      return recipe
    case .adHoc(let kind, let width, let height):
      guard config.serve.adHoc else {
        throw .adHocRefused("ad-hoc sizes are off (serve.ad-hoc in thumbforge.yml)")
      }
      guard RecipeRequest.adHocKinds.contains(kind) else {
        throw .adHocRefused("ad-hoc boxes are fit or fill, not \(kind.rawValue)")
      }
      let limit = config.serve.maxSize
      guard width <= limit, height <= limit else {
        throw .adHocRefused("\(width)x\(height) pt is over serve.max-size (\(limit) pt)")
      }
      var recipe = Recipe.builtin(kind, name: request.text)
      recipe.size = PointSize(width: Double(width), height: Double(height))
      return recipe
    }
  }

  /// The placeholder of `asset`'s imageset of `recipe` (`placeholders: thumbhash`) as the
  /// last build's manifest records it, with the imageset's point size, when that imageset
  /// is up to date (same key, same masters). Placeholders are made by builds only.
  package func placeholder(asset: String, recipe: String) throws(OnDemandError) -> Placeholder {
    guard let job = jobs[asset] else { throw .unknownAsset(asset) }
    guard let set = job.imageSets.first(where: { $0.recipe.name == recipe }) else {
      throw .noSuchOutput("\(asset) has no imageset of recipe '\(recipe)'")
    }
    guard config.placeholders != .none else {
      throw .noSuchOutput("the configuration makes no placeholders (placeholders: thumbhash)")
    }
    guard let entry = upToDateEntry(of: set, in: job), let thumbHash = entry.thumbHash,
      let size = SwiftAccessorGenerator.pointSize(of: entry)
    else {
      throw .noSuchOutput("\(set.folder) has no placeholder yet: run thumbforge build")
    }
    return Placeholder(thumbHash: thumbHash, width: size.width, height: size.height)
  }

  /// An imageset's placeholder as `serve` answers it.
  package struct Placeholder: Sendable, Equatable {
    /// The ThumbHash, base64.
    package var thumbHash: String
    /// The imageset's point size.
    package var width: Double
    package var height: Double

    /// An entity tag for the body: the hash and the size, which are all it holds.
    package var etag: String {
      "\(thumbHash)-\(SwiftAccessorGenerator.number(width))x\(SwiftAccessorGenerator.number(height))"
    }

    /// The JSON body: `{"height":25,"thumbHash":"…","width":40}` (keys sorted, one line).
    package var json: String {
      "{\"height\":\(SwiftAccessorGenerator.number(height)),\"thumbHash\":\"\(thumbHash)\","
        + "\"width\":\(SwiftAccessorGenerator.number(width))}\n"
    }
  }

  /// The last build's manifest entry of `set` when it is up to date: the same key and the
  /// same masters (their hashes) as `job` plans now; nil otherwise.
  private func upToDateEntry(of set: PlannedImageSet, in job: Job) -> ManifestImageSet? {
    guard let entry = previous[set.folder], entry.recipeHash == set.key,
      entry.sources == job.source.manifestSources
    else { return nil }
    return entry
  }

  /// The output's bytes and their hash from the catalog when the last build's manifest lists
  /// it up to date (same key, same masters) and the file still has the recorded hash; `nil`
  /// otherwise.
  package func catalogBytes(for request: OnDemandRequest) -> (bytes: [UInt8], hash: String)? {
    guard let entry = upToDateEntry(of: request.set, in: request.job),
      let recorded = entry.outputs.first(where: { $0.path == request.output.path }),
      let data = FileManager.default.contents(
        atPath: workspace.catalog.appendingPathComponent(request.output.path).path),
      ContentHash.of(data) == recorded.hash
    else { return nil }
    return (Array(data), recorded.hash)
  }

  /// Renders every output of the request's job, each with its cache key (so that a cache
  /// can keep the siblings too), as `build` renders a job: the catalog plan's jobs give the
  /// catalog's bytes, and a job planned for the request alone is rendered by the same code.
  /// Its raster masters are decoded once into `decoded` and resized from there by later
  /// renders (the same bytes; only the decoding is saved).
  package func render(_ request: OnDemandRequest, decoded: DecodedMasters)
    throws(OnDemandError) -> [RenderedOutput]
  {
    let renderer = Renderer(
      folder: workspace.folder, failOn: config.failOn, limits: RenderLimits(config),
      decodedMasters: decoded)
    let work = Self.work(of: request.job)
    // Over a limit: refused from the plan, before anything is decoded (413).
    if let refusal = renderer.limits.refusal(of: work) { throw .tooLarge(refusal) }
    // A master replaced since the scan would be rendered under the old master's address
    // (and past the plan's limits, checked again from its header while decoding): the
    // render is refused before and discarded after, until the reload plans the new file.
    try checkUnchanged(request.job)
    let result = renderer.render(work, masters: request.job.source.allMasters)
    if let problem = result.problems.first {
      throw problem.kind == .tooLarge
        ? .tooLarge(problem.description) : .undecodable(problem.description)
    }
    try checkUnchanged(request.job)
    return request.job.imageSets.flatMap { set in
      set.outputs.compactMap { output in
        result.files.first(where: { $0.output.path == output.path }).map { file in
          RenderedOutput(
            cacheKey: request.cacheKey(set: set, output: output), bytes: file.bytes,
            hash: file.hash, format: output.format, pixelSize: output.pixelSize)
        }
      }
    }
  }

  /// Throws ``OnDemandError/changed(_:)`` when a master of `job` no longer has the size and
  /// modification time it had when the folder was scanned.
  private func checkUnchanged(_ job: Job) throws(OnDemandError) {
    for master in job.source.allMasters
    where !signature.isUnchanged(master.path, in: workspace.folder) {
      throw .changed("\(master.path) changed since the folder was scanned")
    }
  }

  /// Every output of `job`, each with its recipe.
  private static func work(of job: Job) -> [(Recipe, PlannedOutput)] {
    job.imageSets.flatMap { set in
      set.outputs.map { output in
        // Placeholders and the destinations beside the catalog are builds': a render here
        // would discard them.
        var output = output
        output.makesPlaceholder = false
        output.derived = []
        return (set.recipe, output)
      }
    }
  }
}
