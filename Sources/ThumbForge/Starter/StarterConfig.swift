/// The text of the `thumbforge.yml` files `thumbforge init` writes.
enum StarterConfig {
  /// A commented starter configuration: every line but `output` is a comment showing a key
  /// with its default or an example, so the file loads to the defaults.
  static let commented = """
    # thumbforge.yml: ThumbForge's configuration for this asset folder.
    # Every key has a default; uncomment what you need (README, "Configuration").

    # The catalog to write, relative to this folder (it must be outside it).
    output: ../Build/Assets.xcassets

    # The display scales to write (1x on request).
    # scales: [2, 3]

    # The scale of a raster master without an @Nx suffix (Name.png).
    # master-scale: 3

    # Groups (sub-folders) add their name to asset names: Flags/Italy.
    # provides-namespace: false

    # The first rule whose glob matches a master picks its recipes; other files get variants.
    # rules:
    #   - match: "Flags/**"
    #     recipes: [variants, flag]
    #   - match: "Photos/*.jpg"
    #     recipes: [variants, fill]

    # Presets of your own, or changes to the built-ins (variants, fit, fill, flag, tile).
    # recipes:
    #   hero: { kind: fit, size: [1024, 1366], scales: [2] }

    """

  /// The configuration of a folder made from an existing catalog `name` with `sets` set
  /// folders and `groups` group `Contents.json` files: `output` names the catalog itself,
  /// the manifest stays with the masters, and, when `withMetadata` of its JPEG and PNG files
  /// carry metadata, the `as-is` recipe keeps it, so that building changes no byte.
  static func fromCatalog(
    name: String, output: String, sets: Int, groups: Int, withMetadata: Int
  ) -> String {
    var text = """
      # thumbforge.yml, made by `thumbforge init --from \(name)` (\(sets) set\(sets == 1 ? "" : "s"), \(groups) group\(groups == 1 ? "" : "s")).
      #
      # Every set folder here (.imageset, .colorset, .appiconset …) and every Contents.json is
      # copied into the catalog as it is, so `thumbforge build` gives back \(name) unchanged,
      # and owns only what its manifest lists.
      #
      # To let ThumbForge make an imageset's smaller scales, delete their files from its set
      # folder (keep its Contents.json): the build makes each from the largest file of the
      # same slot (same idiom, appearance, gamut …). To hand the imageset to the recipes
      # instead, move its largest file out beside the folder as Name@3x.png (or an .svg/.pdf)
      # and delete the folder. See docs/adopting.md, and README "Configuration" for every key.

      # The catalog to write, relative to this folder: the one adopted.
      output: \(output)

      # What the build wrote and owns, kept with the masters.
      manifest: manifest.json

      """
    if withMetadata > 0 {
      text += """

        # \(withMetadata) JPEG or PNG file\(withMetadata == 1 ? "" : "s") of \(name) carry metadata (EXIF, XMP,
        # IPTC, comments, text chunks), kept so that building changes no byte. Set
        # keep-metadata to false to drop it from the copies (the pixels and ICC profile stay).
        recipes:
          as-is: { keep-metadata: true }

        """
    }
    return text
  }
}
