internal import ThumbForgeCatalog
internal import ThumbForgeConfig

extension ImageSetEntry {
  /// The entry of a planned imageset: its files by slot, and the catalog properties its
  /// recipe sets.
  init(_ set: PlannedImageSet) {
    self.init(
      group: set.folder.split(separator: "/").dropLast().map(String.init), name: set.name,
      files: [:],
      templateRenderingIntent: set.recipe.templateRenderingIntent,
      preservesVectorRepresentation: set.recipe.preservesVectorRepresentation
        || set.outputs.contains { $0.slot.scale == Slot.singleScale },
      compressionType: set.recipe.compressionType)
    for output in set.outputs { setFile(output.fileName, for: output.slot) }
  }
}
