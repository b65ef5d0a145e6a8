extension ImageSetEntry {
  /// The entry of a planned imageset: its files by scale and appearance, and the catalog
  /// properties its recipe sets.
  init(_ set: PlannedImageSet) {
    var files: [Int: String] = [:]
    var dark: [Int: String] = [:]
    for output in set.outputs {
      if output.isDark {
        dark[output.scale] = output.fileName
      } else {
        files[output.scale] = output.fileName
      }
    }
    self.init(
      group: set.folder.split(separator: "/").dropLast().map(String.init), name: set.name,
      files: files, darkFiles: dark,
      templateRenderingIntent: set.recipe.templateRenderingIntent,
      preservesVectorRepresentation: set.recipe.preservesVectorRepresentation
        || set.outputs.contains { $0.scale == ImageSetEntry.singleScale },
      compressionType: set.recipe.compressionType)
  }
}
