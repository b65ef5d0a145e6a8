internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
internal import ThumbForgeConfig
internal import ThumbForgePlanning

extension SwiftAccessorGenerator {
  /// Writes the generated Swift accessors for every imageset of `manifest` (a build's or a
  /// merge's), only when their text changed. App icon sets get none: code never loads an
  /// app icon by name.
  static func write(
    _ manifest: Manifest, providesNamespace: Bool, options: SwiftAccessorOptions, to url: URL,
    catalog: URL? = nil
  ) throws {
    let text = text(
      for: manifest, providesNamespace: providesNamespace, options: options, catalog: catalog)
    if (try? String(contentsOf: url, encoding: .utf8)) != text {
      try AtomicFile.write(Array(text.utf8), to: url.path)
    }
  }

  /// The text ``write(_:providesNamespace:options:to:catalog:)`` writes for `manifest`
  /// (`check` compares it with the file). A group whose `Contents.json` is carried (an
  /// adopted catalog's) provides a namespace when that file in `catalog` says so; the
  /// others when `providesNamespace`.
  static func text(
    for manifest: Manifest, providesNamespace: Bool,
    options: SwiftAccessorOptions = SwiftAccessorOptions(), catalog: URL? = nil
  ) -> String {
    let sets = manifest.imageSets.filter { $0.folder.hasSuffix(".imageset") }
    var sizes: [String: PointDimensions] = [:]
    // Only a build that makes placeholders (its manifest records the setting) adds them.
    let placeholders = options.style == .swiftgen && manifest.settings?["placeholders"] != nil
    var thumbHashes: [String: String] = [:]
    let entries = sets.map { set in
      let entry = ImageSetEntry(
        group: set.group,
        name: (set.folder as NSString).lastPathComponent.replacingOccurrences(
          of: ".imageset", with: ""), files: [:])
      if options.style == .swiftgen, let size = pointSize(of: set) {
        sizes[(entry.group + [entry.name]).joined(separator: "/")] = size
      }
      if placeholders, let thumbHash = set.thumbHash {
        thumbHashes[(entry.group + [entry.name]).joined(separator: "/")] = thumbHash
      }
      return entry
    }
    let carriedGroups = Set(
      manifest.imageSets.lazy.filter {
        $0.isCarried && !SetFolder.isSetFolderName(($0.folder as NSString).lastPathComponent)
      }.map(\.folder))
    // Each group once: a carried group's Contents.json is read once, not once per set.
    let namespaced = Set(
      manifest.imageSets.flatMap { set in
        set.group.indices.map { Array(set.group.prefix($0 + 1)) }
      }
    ).filter { group in
      let path = group.joined(separator: "/")
      guard carriedGroups.contains(path) else { return providesNamespace }
      return catalog.map {
        GroupFolders.providesNamespace(
          contentsAt: $0.appendingPathComponent(path + "/Contents.json"))
      } ?? false
    }
    return generate(
      entries: entries, options: options, sizes: sizes,
      thumbHashes: placeholders ? thumbHashes : nil, namespacedGroups: namespaced)
  }

  /// An image set's point size: its largest-scale sRGB, any-appearance output's pixels over
  /// its scale (a kept vector file, scale 0, is its own point size).
  static func pointSize(of set: ManifestImageSet) -> PointDimensions? {
    let candidates = set.outputs.filter { output in
      output.slot.map { $0.appearance == .any && $0.gamut == .sRGB } ?? false
    }
    guard let output = candidates.max(by: { $0.scale < $1.scale }) else { return nil }
    let scale = Double(max(output.scale, 1))
    return PointDimensions(
      width: Double(output.width) / scale, height: Double(output.height) / scale)
  }
}
