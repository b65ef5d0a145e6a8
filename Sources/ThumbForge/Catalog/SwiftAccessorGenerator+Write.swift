internal import Foundation

extension SwiftAccessorGenerator {
  /// Writes the generated Swift constants for every imageset of `manifest` (a build's or a
  /// merge's), only when their text changed. App icon sets get none: code never loads an
  /// app icon by name.
  static func write(_ manifest: Manifest, providesNamespace: Bool, to url: URL) throws {
    let text = text(for: manifest, providesNamespace: providesNamespace)
    if (try? String(contentsOf: url, encoding: .utf8)) != text {
      try AtomicFile.write(Array(text.utf8), to: url.path)
    }
  }

  /// The text ``write(_:providesNamespace:to:)`` writes for `manifest` (`check` compares it
  /// with the file).
  static func text(for manifest: Manifest, providesNamespace: Bool) -> String {
    let entries = manifest.imageSets.filter { $0.folder.hasSuffix(".imageset") }.map { set in
      ImageSetEntry(
        group: set.group,
        name: (set.folder as NSString).lastPathComponent.replacingOccurrences(
          of: ".imageset", with: ""), files: [:])
    }
    let namespaced: Set<[String]> =
      providesNamespace
      ? Set(
        manifest.imageSets.flatMap { set in
          set.group.indices.map { Array(set.group.prefix($0 + 1)) }
        }) : []
    return generate(entries: entries, namespacedGroups: namespaced)
  }
}
