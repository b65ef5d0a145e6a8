internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import Vips

/// Plans an app icon set (`kind: appicon`): its slots, the files that fill them (one PNG per
/// appearance, pixel size and opacity, shared by the slots of equal size) and the text of
/// its `Contents.json`.
package struct AppIconPlanner {
  let recipe: Recipe
  let asset: String
  /// The set's folder relative to the catalog root (`AppIcon.appiconset`).
  package let folder: String

  /// The outputs, warnings and `Contents.json` of `source`'s icon set.
  func plan(_ source: AssetSource) -> (
    outputs: [PlannedOutput], warnings: [BuildWarning], contents: String
  ) {
    let slots = AppIconSlot.slots(layout: recipe.iconLayout, platforms: recipe.iconPlatforms)
    var warnings: [BuildWarning] = []
    func warn(_ kind: BuildWarning.Kind, _ file: String, _ message: String) {
      warnings.append(BuildWarning(kind: kind, file: file, imageSet: folder, message: message))
    }
    var outputs: [PlannedOutput] = []
    var filled: [(slot: AppIconSlot, filename: String?)] = []
    var fileNames: [String: String] = [:]  // file name → made for this key
    for slot in slots {
      guard let master = Self.master(of: source, for: slot.appearance) else {
        filled.append((slot, nil))
        continue
      }
      let output = self.output(master, slot: slot)
      if fileNames[output.fileName] == nil {
        fileNames[output.fileName] = output.path
        outputs.append(output)
        if let factor = output.upscale {
          warn(
            .enlargement, master.path,
            "\(output.fileName): enlarges \(master.path) (\(master.pixelSize)) by \((factor * 100).rounded() / 100)x; App Store icons need a 1024x1024 master"
          )
        }
      }
      filled.append((slot, output.fileName))
    }
    for appearance in [Slot.Appearance.dark, .tinted]
    where !slots.contains(where: { $0.appearance == appearance }) {
      if let master = Self.master(of: source, for: appearance) {
        warn(
          .unusedMaster, master.path,
          "\(master.path): only the single-size iOS icon has a \(appearance.rawValue) appearance (icon-layout: single); not used"
        )
      }
    }
    for master in Set(outputs.map(\.master)).sorted() {
      guard let found = source.allMasters.first(where: { $0.path == master }) else { continue }
      let size = found.isVector ? found.pointSize.pixels(scale: 1) : found.pixelSize
      if size.width != size.height {
        warn(.other, master, "\(master) is \(size), not square; icons are its centred square crop")
      }
    }
    return (outputs, warnings, CatalogContents.appIconSet(filled))
  }

  /// The master of one appearance: a vector one, else the largest raster one.
  private static func master(of source: AssetSource, for appearance: Slot.Appearance)
    -> Master?
  {
    let masters: [Master]
    switch appearance {
    case .any: masters = source.masters
    case .dark: masters = source.darkMasters
    case .tinted: masters = source.tintedMasters
    }
    return masters.first(where: \.isVector)
      ?? masters.max { $0.pixelSize.area < $1.pixelSize.area }
  }

  /// The file one slot needs: the master filled to the slot's square and centre-cropped.
  private func output(_ master: Master, slot: AppIconSlot) -> PlannedOutput {
    let box = PixelSize(width: slot.pixels, height: slot.pixels)
    let reference = master.isVector ? master.pointSize.pixels(scale: 1) : master.pixelSize
    let factor = Geometry.fillScale(reference, covering: box)
    let resized = Geometry.fillSize(reference, covering: box)
    let fileName = slot.fileName(asset: asset)
    var output = PlannedOutput(
      slot: slot.fileSlot, pixelSize: box, resizeTo: resized,
      crop: Geometry.cropRect(resized, to: box, gravity: .center), master: master.path,
      mode: .render, format: .png, fileName: fileName, path: folder + "/" + fileName,
      upscale: !master.isVector && factor > 1.0001 ? factor : nil,
      isOpaque: slot.isOpaque)
    output.finish = OutputFinish.plan(recipe: recipe, output: output, master: master)
    output.cost = RenderCost.planned(
      master: master, resizeTo: resized, pixelSize: box, cut: output.finish.cut)
    return output
  }
}
