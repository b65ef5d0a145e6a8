package import Foundation
internal import ThumbForgeBasics
package import ThumbForgeConfig
package import ThumbForgePlanning
package import Vips

/// Renders the outputs of one job, decoding each master once (with shrink-on-load to the
/// largest size its outputs need) and deriving every output from that one image.
package struct Renderer: Sendable {
  package var folder: URL
  var failOn: FailOn
  /// The configuration's limits, checked against each output's planned cost before its
  /// master is decoded, and (`limit-input-pixels`) again while decoding.
  package var limits: RenderLimits
  /// Where raster masters stay decoded between renders (`serve`); nil: each render decodes
  /// its master while resizing it, never holding it whole (`build`). The bytes are the same.
  var decodedMasters: DecodedMasters?
  /// Whether a master both copied and resized is decoded once for both (see
  /// ``sharedDecode(_:of:at:for:in:)``); false: a check's decode and the resizes' (tests
  /// compare the two).
  var sharesDecodes = true

  package init(
    folder: URL, failOn: FailOn = .warning, limits: RenderLimits = RenderLimits(),
    decodedMasters: DecodedMasters? = nil
  ) {
    self.folder = folder
    self.failOn = failOn
    self.limits = limits
    self.decodedMasters = decodedMasters
  }

  /// Renders `outputs` (each with its recipe); failures become problems, others still render.
  /// An output over a limit (``RenderLimits``) is refused before anything is decoded.
  package func render(_ outputs: [(Recipe, PlannedOutput)], masters: [Master]) -> JobResult {
    var files: [RenderedFile] = []
    var problems: [Problem] = []
    let byPath = Dictionary(masters.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let grouped = Dictionary(grouping: outputs, by: { $0.1.master })
    for path in grouped.keys.sorted() {
      guard let master = byPath[path] else { continue }
      var work: [(Recipe, PlannedOutput)] = []
      var refusals: [String] = []
      for item in grouped[path]! {
        // (A file rendered from the master for a destination is within them: the plan
        // leaves out those that are not.)
        if let refusal = limits.refusal(of: item.1) {
          refusals.append(refusal)
        } else {
          work.append(item)
        }
      }
      if let first = refusals.first {
        let more = refusals.count > 1 ? " (and \(refusals.count - 1) more outputs)" : ""
        problems.append(Problem(path: path, reason: first + more, kind: .tooLarge))
        if work.isEmpty { continue }
      }
      do {
        files += try withPlaceholders(render(work, master: master), recipes: work)
      } catch let error as VipsError {
        // Over a limit when decoded (the master changed since it was planned): as refused.
        problems.append(
          Problem(
            path: path,
            reason: ErrorWording.describe(error, file: folder.filePath(path)),
            kind: error.isOverLimit ? .tooLarge : .other))
      } catch {
        problems.append(
          Problem(path: path, reason: "cannot read the file (\(error.localizedDescription))"))
      }
    }
    return JobResult(files: files, problems: problems)
  }

  /// `files` with the placeholders their plan asks of copied files that no check decoded on
  /// its own (those shipped from a decode shared with resizes), and the files of the
  /// destinations beside the catalog it asks of copied files; a rendered file's are made from its pixels as it is encoded, a checked
  /// copy's placeholder from the check's decode.
  private func withPlaceholders(_ files: [RenderedFile], recipes work: [(Recipe, PlannedOutput)])
    throws(VipsError) -> [RenderedFile]
  {
    var files = files
    for index in files.indices
    where files[index].output.makesPlaceholder && files[index].placeholder == nil {
      files[index].placeholder = try Placeholder.thumbHash(
        ofFile: files[index].bytes, failOn: failOn)
    }
    for index in files.indices {
      let fromPixels = files[index].output.derivedFromPixels
      guard !fromPixels.isEmpty,
        !files[index].derived.contains(where: { $0.file.source == .catalogFile }),
        let recipe = work.first(where: { $0.1.path == files[index].output.path })?.0
      else { continue }
      files[index].derived = DerivedFiles.inPlannedOrder(
        files[index].derived
          + (try DerivedFiles.render(
            ofFile: files[index].bytes, failOn: failOn, recipe: recipe, files: fromPixels)),
        of: files[index].output)
    }
    return files
  }

  private func render(_ work: [(Recipe, PlannedOutput)], master: Master) throws -> [RenderedFile] {
    // A carried set's files are copied, never decoded to be re-encoded; its slots whose
    // files were deleted are rendered like any output (resized from a larger file).
    let isCarriedCopy = { (item: (Recipe, PlannedOutput)) in
      item.0.kind == .asIs && item.1.mode == .copy
    }
    let copies = try work.filter(isCarriedCopy).map { recipe, output in
      try carried(output, of: master, keepingMetadata: recipe.keepMetadata)
    }
    let rendered = work.filter { !isCarriedCopy($0) }
    guard !rendered.isEmpty else { return copies }
    // Display P3 files come from a second decode of the master, converted to Display P3
    // instead of sRGB (only wide-gamut masters have them; an empty part decodes nothing).
    return try copies
      + DisplayGamut.allCases.flatMap { gamut in
        try render(
          rendered.filter { $0.1.slot.gamut == gamut }, master: master, in: gamut.profile)
      }
  }

  /// Renders `work` (all of it in `profile`'s colour space) from `master`.
  private func render(_ work: [(Recipe, PlannedOutput)], master: Master, in profile: RGBProfile)
    throws -> [RenderedFile]
  {
    let path = folder.filePath(master.path)
    let own = work.filter { $0.1.mode != .copy }
    // Files of a destination rendered from the master itself, after the outputs they are
    // planned with (``DerivedFile/Source/master(_:)``), without metadata like every
    // destination's file.
    let fromMaster = work.flatMap { recipe, output in
      var recipe = recipe
      recipe.keepMetadata = false
      return output.derived.compactMap(\.masterOutput).map { (recipe, $0) }
    }
    let toDecode = try decidingEnlargedSmartCrops(own + fromMaster, master: master, in: profile)
    let copied = work.filter { $0.1.mode == .copy }
    guard !toDecode.isEmpty else { return try copies(copied, of: master, at: path) }
    let requests = toDecode.map { recipe, output in
      ResizeRequest(
        width: output.resizeTo.width, height: output.resizeTo.height, kernel: recipe.kernel,
        region: (recipe.kind.crops ? output.crop : nil)?.vipsRect)
    }
    let shared = try sharedDecode(
      copied.map(\.1), of: master, at: path, for: requests, in: profile)
    // Each output is finished as soon as its resize exists, and the resize let go, so few
    // full-size buffers are alive at once; outputs sharing a resize share its encodings.
    var finished: [Int: RenderedFile] = [:]
    let encode = { (indices: [Int], image: VipsImage) throws(VipsError) in
      let memo = EncodingMemo()
      for index in indices {
        finished[index] = try finish(
          image, recipe: toDecode[index].0, output: toDecode[index].1, memo: memo)
      }
    }
    if master.isVector {
      try MasterImage.rasterise(
        path: path, width: master.pixelSize.width, for: requests, failOn: failOn,
        profile: profile, then: encode)
    } else {
      let decoded =
        try shared?.decoded ?? decoded(master, at: path, for: requests, in: profile)
      try decoded.resize(requests, then: encode)
    }
    let files = (0..<own.count).compactMap { finished[$0] }
    let rendered = Dictionary(
      (own.count..<toDecode.count).compactMap { finished[$0] }.map { ($0.output.path, $0) },
      uniquingKeysWith: { first, _ in first })
    guard let shared else {
      return DerivedFiles.adding(
        rendered, to: try copies(copied, of: master, at: path) + files)
    }
    return DerivedFiles.adding(
      rendered,
      to: try copyFiles(copied, of: master, bytes: shared.bytes, hash: shared.hash) + files)
  }

  /// The master opened for `requests`: shrunk on load to the largest, upright, 8-bit RGB in
  /// `profile` (or that image, held from an earlier render).
  private func decoded(
    _ master: Master, at path: String, for requests: [ResizeRequest], in profile: RGBProfile
  ) throws(VipsError) -> MasterImage {
    let opened = try MasterImage(
      path: path, resizes: requests, failOn: failOn, limitInputPixels: limits.inputPixels,
      profile: profile)
    return try decodedMasters?.decoded(opened, master: master, profile: profile, failOn: failOn)
      ?? opened
  }

  /// The outputs `copied` (per-scale masters used as they are): the master's bytes, checked
  /// (``VerifiedCopy``). Read after the decoding work, so their bytes are not alive during
  /// it.
  private func copies(_ copied: [(Recipe, PlannedOutput)], of master: Master, at path: String)
    throws -> [RenderedFile]
  {
    guard !copied.isEmpty else { return [] }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let (hash, placeholder) = try VerifiedCopy(master: master, failOn: failOn).check(
      bytes, makingPlaceholder: copied.contains { $0.1.makesPlaceholder })
    var files = try copyFiles(copied, of: master, bytes: bytes, hash: hash)
    // A copy without metadata decodes to the same pixels (``withoutMetadata(_:)``).
    for index in files.indices where files[index].output.makesPlaceholder {
      files[index].placeholder = placeholder
    }
    return files
  }

  /// The files of `copied` from the master's checked `bytes`: as they are, or, for a master
  /// carrying metadata whose recipe does not keep it, its container without the metadata
  /// (``withoutMetadata(_:)``): never re-encoded.
  private func copyFiles(
    _ copied: [(Recipe, PlannedOutput)], of master: Master, bytes: [UInt8], hash: String
  ) throws(VipsError) -> [RenderedFile] {
    guard master.hasMetadata, copied.contains(where: { !$0.0.keepMetadata }) else {
      return copied.map { RenderedFile(output: $0.1, bytes: bytes, hash: hash) }
    }
    guard let clean = withoutMetadata(bytes) else {
      throw VipsError(
        context: master.path,
        message:
          "its metadata cannot be removed from the file without changing its pixels; save it without metadata, or set keep-metadata: true"
      )
    }
    let cleanHash = ContentHash.of(bytes: clean)
    return copied.map { recipe, output in
      recipe.keepMetadata
        ? RenderedFile(output: output, bytes: bytes, hash: hash)
        : RenderedFile(output: output, bytes: clean, hash: cleanHash)
    }
  }

  /// For a raster master both shipped as-is (`copied`) and resized (`requests`): its bytes,
  /// read once and held while the resizes are made (the file's size, not its pixels'),
  /// checked by the one decode that feeds the resizes, instead of a check's decode and
  /// another for the resizes. A damaged file throws while it is resized, so its copies are
  /// never shipped. Nil otherwise, or when the resizes need the file shrunk on load (the
  /// two decodes differ), or in `serve` (which keeps its own decoded masters).
  private func sharedDecode(
    _ copied: [PlannedOutput], of master: Master, at path: String,
    for requests: [ResizeRequest], in profile: RGBProfile
  ) throws -> (bytes: [UInt8], hash: String, decoded: MasterImage)? {
    guard sharesDecodes, !copied.isEmpty, !master.isVector, decodedMasters == nil else {
      return nil
    }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    guard
      let (hash, decoded) = try VerifiedCopy(master: master, failOn: failOn).checkDecoding(
        bytes, resizes: requests, limitInputPixels: limits.inputPixels, profile: profile)
    else { return nil }
    return (bytes, hash, decoded)
  }

  /// Executes the output's planned finish (``OutputFinish``) on `resized`, the master
  /// resized to the output's `resizeTo` (already cropped to `output.crop`), in its order —
  /// cut, shape, tint, flatten — and encodes the result. The file records the output with
  /// the crop a smart crop made.
  private func finish(
    _ resized: VipsImage, recipe: Recipe, output planned: PlannedOutput, memo: EncodingMemo
  ) throws(VipsError) -> RenderedFile {
    var output = planned
    var image = resized
    switch output.finish.cut {
    case .none:
      break
    case .pad(let canvas, let background):
      image = try padded(image, to: canvas, background: background)
    case .smart(let interesting, let box, _):
      let (cropped, rect) = try image.smartCropped(
        width: box.width, height: box.height, interesting: interesting)
      image = cropped
      output.crop = PixelRect(rect)
    }
    if let shape = output.finish.shape { image = try shape.apply(to: image) }
    if output.finish.greyscale { image = try image.colourspace(.bw) }
    if image.hasAlpha, let background = output.finish.flatten {
      image = try image.flattened(background: [
        Double(background.red), Double(background.green), Double(background.blue),
      ])
    }
    return try encode(image, recipe: recipe, output: output, memo: memo)
  }

  /// `image` letterboxed, centred, onto `canvas` filled with `color` (with alpha when the
  /// colour is translucent).
  private func padded(_ resized: VipsImage, to canvas: PixelSize, background color: RGBAColor)
    throws(VipsError) -> VipsImage
  {
    var image = resized
    if color.alpha < 255 { image = try image.addingAlpha() }
    let background =
      image.hasAlpha
      ? [Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha)]
      : [Double(color.red), Double(color.green), Double(color.blue)]
    return try image.embed(
      x: (canvas.width - image.width) / 2, y: (canvas.height - image.height) / 2,
      width: canvas.width, height: canvas.height, extend: .background,
      background: background)
  }

  /// The output's file: checked against the planned size (the manifest and Contents.json
  /// record it), encoded, and for HEIF and AVIF read back.
  private func encode(
    _ finished: VipsImage, recipe: Recipe, output: PlannedOutput, memo: EncodingMemo
  ) throws(VipsError) -> RenderedFile {
    // Files derived from this one read its pixels again, which a decoder's pipeline (a
    // master at its own size) gives only once: held in memory for them.
    let fromPixels = output.derivedFromPixels
    let image = fromPixels.isEmpty ? finished : try finished.copiedToMemory()
    // The plan decided the size (the manifest and Contents.json record it): hold to it.
    guard image.width == output.pixelSize.width, image.height == output.pixelSize.height else {
      throw VipsError(
        context: output.path,
        message:
          "internal error: rendered \(image.width)x\(image.height), planned \(output.pixelSize); please report it"
      )
    }
    let file = try memo.encoded(
      image, as: output.format,
      options: SaveOptions(
        quality: recipe.quality, stripMetadata: !recipe.keepMetadata,
        optimizeCoding: recipe.optimizeCoding,
        keepProfile: output.slot.gamut == .displayP3))
    if output.format == .heif || output.format == .avif {
      try Self.checkReadable(file.bytes, output: output)
    }
    return RenderedFile(
      output: output, bytes: file.bytes, hash: file.hash,
      placeholder: output.makesPlaceholder ? try Placeholder.thumbHash(of: image) : nil,
      derived: fromPixels.isEmpty
        ? [] : try DerivedFiles.render(image, recipe: recipe, files: fromPixels))
  }

  /// Decodes a HEIF (or AVIF) output back before it is shipped: libheif writes files it cannot read
  /// for some shapes (1×5000, 2×20000) and for sides over 16384 pixels, without an error.
  static func checkReadable(_ bytes: [UInt8], output: PlannedOutput) throws(VipsError) {
    do {
      _ = try VipsImage.load(bytes: bytes).average()
    } catch {
      throw VipsError(
        context: output.path,
        message:
          "the HEIF encoder wrote a \(output.pixelSize) file it cannot read back (\(error.message)); use another format for this recipe"
      )
    }
  }

}

extension PixelRect {
  /// The same rectangle for the Vips layer.
  fileprivate var vipsRect: VipsRect { VipsRect(x: x, y: y, width: width, height: height) }

  /// The same rectangle from the Vips layer.
  fileprivate init(_ rect: VipsRect) {
    self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
  }
}
