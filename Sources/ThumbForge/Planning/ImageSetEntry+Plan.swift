extension ImageSetEntry {
  /// The entry of a planned imageset: its files by scale and appearance, and the catalog
  /// properties its recipe sets.
  init(_ set: PlannedImageSet) {
    var files: [Int: String] = [:]
    var dark: [Int: String] = [:]
    var p3: [Int: String] = [:]
    var p3Dark: [Int: String] = [:]
    for output in set.outputs {
      switch (output.isDark, output.displayGamut) {
      case (false, .sRGB): files[output.scale] = output.fileName
      case (true, .sRGB): dark[output.scale] = output.fileName
      case (false, .displayP3): p3[output.scale] = output.fileName
      case (true, .displayP3): p3Dark[output.scale] = output.fileName
      }
    }
    self.init(
      group: set.folder.split(separator: "/").dropLast().map(String.init), name: set.name,
      files: files, darkFiles: dark, displayP3Files: p3, displayP3DarkFiles: p3Dark,
      templateRenderingIntent: set.recipe.templateRenderingIntent,
      preservesVectorRepresentation: set.recipe.preservesVectorRepresentation
        || set.outputs.contains { $0.scale == ImageSetEntry.singleScale },
      compressionType: set.recipe.compressionType)
  }
}
