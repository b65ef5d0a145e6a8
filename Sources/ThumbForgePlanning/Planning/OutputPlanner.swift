internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import Vips

/// Decides one output of one recipe at one scale: which master, which mode, which sizes.
package struct OutputPlanner {
  enum Outcome {
    case output(PlannedOutput, warning: BuildWarning?)
    case skipped(BuildWarning)
  }

  let recipe: Recipe
  let asset: String
  package let folder: String
  /// Where to centre crops (nil: by `gravity`).
  var focus: FocusPoint? = nil
  /// The display scale outputs are planned at instead of their slot's: a vector master's
  /// Android density (1.5 for `hdpi`), rendered from the master itself.
  var density: Double? = nil

  /// The sRGB output of `slot` (its Display P3 sibling is ``displayP3(_:)``'s).
  func output(masters: [Master], slot: Slot) -> Outcome {
    let vector = masters.first(where: \.isVector)
    let largest = masters.filter { !$0.isVector }.max { $0.pixelSize.area < $1.pixelSize.area }
    let scale = self.scale(of: slot)
    if recipe.kind == .variants {
      return variant(masters: masters, vector: vector, largest: largest, slot: slot)
    }
    guard let master = vector ?? largest else { return noMaster(slot) }
    let box = recipe.size.pixels(scale: scale)
    let reference = master.isVector ? master.pointSize.pixels(scale: 1) : master.pixelSize
    var resized: PixelSize
    var pixelSize: PixelSize
    var crop: PixelRect?
    let factor: Double
    switch recipe.kind {
    case .fit:
      factor = Geometry.fitScale(reference, into: box)
      resized = Geometry.fitSize(reference, into: box)
      pixelSize = recipe.pad ? box : resized
    default:
      factor = Geometry.fillScale(reference, covering: box)
      resized = Geometry.fillSize(reference, covering: box)
      pixelSize = box
      if let focus {
        crop = Geometry.cropRect(resized, to: box, around: focus)
      } else if !recipe.gravity.isSmart {
        crop = Geometry.cropRect(resized, to: box, gravity: recipe.gravity)
      }
    }
    pixelSize = grown(pixelSize, scale: scale)
    var warning: BuildWarning?
    if !master.isVector && factor > 1.0001 {
      let text =
        "\(slot.label): enlarges \(master.path) (\(master.pixelSize)) by \((factor * 100).rounded() / 100)x to \(resized)"
      switch recipe.upscale {
      case .never:
        return .skipped(notice(.skipped, master.path, text + "; skipped (upscale: never)"))
      case .warn: warning = notice(.enlargement, master.path, text)
      case .allow: break
      case .keep: return kept(master, box: box, slot: slot)
      }
    }
    return .output(
      make(
        master: master, slot: slot, pixelSize: pixelSize, resizeTo: resized, crop: crop,
        mode: .render, hasAlpha: recipe.alwaysHasAlpha || master.hasAlpha,
        upscale: (!master.isVector && factor > 1.0001) ? factor : nil),
      warning: warning)
  }

  /// `upscale: keep`: a raster master too small for the box, at its own resolution: whole
  /// for `fit`, else its largest centred crop of the box's aspect.
  private func kept(_ master: Master, box: PixelSize, slot: Slot) -> Outcome {
    let size = master.pixelSize
    var pixelSize = size
    var crop: PixelRect?
    if recipe.kind != .fit {
      // Wider than the box: full height; otherwise full width (in integers, exactly).
      if size.width * box.height > size.height * box.width {
        let width = max(1, Int((Double(size.height * box.width) / Double(box.height)).rounded()))
        pixelSize = PixelSize(width: min(width, size.width), height: size.height)
      } else {
        let height = max(1, Int((Double(size.width * box.height) / Double(box.width)).rounded()))
        pixelSize = PixelSize(width: size.width, height: min(height, size.height))
      }
      crop =
        focus.map { Geometry.cropRect(size, to: pixelSize, around: $0) }
        ?? Geometry.cropRect(size, to: pixelSize, gravity: .center)
    }
    let cropped = pixelSize
    pixelSize = grown(pixelSize, scale: self.scale(of: slot))
    let warning = notice(
      .keptSmall, master.path,
      "\(slot.label): \(master.path) (\(size)) is smaller than the box (\(box)); kept at \(cropped) (upscale: keep)"
    )
    return .output(
      make(
        master: master, slot: slot, pixelSize: pixelSize, resizeTo: size,
        crop: crop, mode: .render, hasAlpha: recipe.alwaysHasAlpha || master.hasAlpha,
        upscale: nil),
      warning: warning)
  }

  /// The Display P3 sibling of an sRGB `output`: the same master, geometry and format,
  /// rendered in Display P3 into `{asset}~P3@{s}x` (`{asset}~dark~P3@{s}x`).
  func displayP3(_ output: PlannedOutput) -> PlannedOutput {
    var sibling = output
    sibling.slot.gamut = .displayP3
    sibling.mode = .render
    sibling.fileName = sibling.slot.fileName(
      asset: asset, fileExtension: output.format.fileExtension)
    sibling.path = folder + "/" + sibling.fileName
    return sibling
  }

  /// The vector master itself, copied, as a single-scale image of `appearance`.
  func keptVector(_ master: Master, appearance: Slot.Appearance) -> PlannedOutput {
    let slot = Slot(scale: Slot.singleScale, appearance: appearance)
    let fileName = slot.fileName(asset: asset, fileExtension: master.fileExtension)
    var output = PlannedOutput(
      slot: slot, pixelSize: master.pixelSize, resizeTo: master.pixelSize, crop: nil,
      master: master.path, mode: .copy, format: .png, fileName: fileName,
      path: folder + "/" + fileName,
      upscale: nil)
    output.cost = RenderCost.whole(master)
    return output
  }

  private func variant(
    masters: [Master], vector: Master?, largest: Master?, slot: Slot
  ) -> Outcome {
    let scale = slot.scale
    if let exact = masters.first(where: { !$0.isVector && $0.scale == scale }) {
      let format = outputFormat(master: exact, hasAlpha: exact.hasAlpha)
      let sameFormat = format == ImageFormat(fileExtension: exact.fileExtension)
      let mode: OutputMode =
        sameFormat && exact.isPlainSRGB ? .copy : .reencode
      return .output(
        make(
          master: exact, slot: slot, pixelSize: exact.pixelSize, resizeTo: exact.pixelSize,
          crop: nil, mode: mode, hasAlpha: exact.hasAlpha, upscale: nil), warning: nil)
    }
    if let vector {
      let size = vector.pointSize.pixels(scale: self.scale(of: slot))
      return .output(
        make(
          master: vector, slot: slot, pixelSize: size, resizeTo: size, crop: nil,
          mode: .render, hasAlpha: true, upscale: nil), warning: nil)
    }
    guard let largest else { return noMaster(slot) }
    let point = largest.pointSize
    let size = point.pixels(scale: scale)
    if size.width > largest.pixelSize.width || size.height > largest.pixelSize.height {
      return .skipped(
        notice(
          .skipped, largest.path,
          "\(slot.label): would enlarge \(largest.path) (\(largest.pixelSize)) to \(size); slot left empty (Xcode falls back to another scale)"
        ))
    }
    return .output(
      make(
        master: largest, slot: slot, pixelSize: size, resizeTo: size, crop: nil,
        mode: .render, hasAlpha: largest.hasAlpha, upscale: nil), warning: nil)
  }

  /// A warning about this imageset, naming `file` (a master, relative to the asset folder).
  private func notice(_ kind: BuildWarning.Kind, _ file: String, _ message: String)
    -> BuildWarning
  {
    BuildWarning(kind: kind, file: file, imageSet: folder, message: message)
  }

  /// A slot no master fills: left out (the imageset's folder is the file to look at).
  private func noMaster(_ slot: Slot) -> Outcome {
    .skipped(notice(.skipped, folder, "\(slot.label): no master"))
  }

  private func make(
    master: Master, slot: Slot, pixelSize: PixelSize, resizeTo: PixelSize,
    crop: PixelRect?, mode: OutputMode, hasAlpha: Bool, upscale: Double?
  ) -> PlannedOutput {
    let format = outputFormat(master: master, hasAlpha: hasAlpha)
    let fileName = slot.fileName(asset: asset, fileExtension: format.fileExtension)
    var output = PlannedOutput(
      slot: slot, pixelSize: pixelSize, resizeTo: resizeTo, crop: crop,
      master: master.path, mode: mode, format: format, fileName: fileName,
      path: folder + "/" + fileName, upscale: upscale)
    output.finish = OutputFinish.plan(
      recipe: recipe, output: output, master: master, scale: self.scale(of: slot))
    output.cost =
      mode == .render
      ? RenderCost.planned(
        master: master, resizeTo: resizeTo, pixelSize: pixelSize,
        cut: output.finish.cut)
      : RenderCost.whole(master)
    return output
  }

  /// The display scale `slot`'s output is planned at: ``density`` when set, else the slot's.
  func scale(of slot: Slot) -> Double { density ?? Double(slot.scale) }

  /// `size` on the canvas a centred stroke grows (``Recipe/canvasGrowth(scale:)``).
  private func grown(_ size: PixelSize, scale: Double) -> PixelSize {
    let grow = recipe.canvasGrowth(scale: scale)
    return PixelSize(width: size.width + grow, height: size.height + grow)
  }

  /// `auto`: PNG when the output has alpha or the master is PNG/GIF/SVG/PDF, else JPEG.
  func outputFormat(master: Master, hasAlpha: Bool) -> ImageFormat {
    if recipe.kind == .flag {
      return recipe.format == .auto ? .png : ImageFormat(rawValue: recipe.format.rawValue) ?? .png
    }
    switch recipe.format {
    case .auto:
      if hasAlpha || ["png", "svg", "pdf", "gif"].contains(master.fileExtension) { return .png }
      return .jpeg
    case .png: return .png
    case .jpeg: return .jpeg
    case .webp: return .webp
    case .heif: return .heif
    case .avif: return .avif
    }
  }

}

extension ImageFormat {
  /// The format a master file extension denotes, if ThumbForge can write it.
  init?(fileExtension: String) {
    switch fileExtension {
    case "png": self = .png
    case "jpg", "jpeg": self = .jpeg
    case "webp": self = .webp
    case "heic", "heif": self = .heif
    case "avif": self = .avif
    default: return nil
    }
  }
}
