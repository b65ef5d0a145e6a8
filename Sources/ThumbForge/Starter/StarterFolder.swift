package import Foundation

/// What `thumbforge init` writes: a `thumbforge.yml` and, from an existing catalog, an asset
/// folder of masters (the largest-scale image of each imageset, named after it, in folders
/// after the catalog's groups). It never overwrites: when any file it would write exists, it
/// writes nothing.
///
/// ```swift
/// let starter = StarterFolder.fromCatalog(URL(fileURLWithPath: "App/Assets.xcassets"))
/// try starter.write(into: URL(fileURLWithPath: "Art"))
/// ```
package struct StarterFolder: Sendable {
  /// One file to write, relative to the asset folder: a copy of `source`, or `text`.
  package struct File: Sendable {
    package var path: String
    package var source: URL?
    package var text: String?
  }

  /// Why `init` wrote nothing.
  package struct Refusal: Error, Sendable, CustomStringConvertible {
    package var description: String
  }

  package var files: [File] = []
  /// Imagesets (or images) that could not be taken, each naming its file.
  package var problems: [Problem] = []
  /// Other assets of the catalog (colour sets, app icons …), which are not copied.
  package var notes: [Problem] = []
  /// How many imagesets gave masters.
  package var imageSets = 0

  /// Only a commented starter `thumbforge.yml`.
  package static func starter() -> StarterFolder {
    StarterFolder(files: [File(path: "thumbforge.yml", text: StarterConfig.commented)])
  }

  /// Masters and a configuration that build `catalog`'s imagesets again (see the type).
  package static func fromCatalog(_ catalog: URL) throws(Refusal) -> StarterFolder {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: catalog.path, isDirectory: &isFolder),
      isFolder.boolValue
    else { throw Refusal(description: "\(catalog.path): no such asset catalog") }
    let name = catalog.standardizedFileURL.lastPathComponent
    let existing = ExistingCatalog.read(catalog, prefix: name)
    var starter = StarterFolder()
    starter.problems = existing.problems
    starter.notes = existing.otherAssets.map {
      Problem(path: $0, reason: "not an imageset; not copied (keep it in an Xcode catalog)")
    }
    var scaleSets: [(set: ExistingCatalog.ImageSet, scales: [Int], master: String)] = []
    for set in existing.imageSets {
      guard let light = set.largest(dark: false) else {
        starter.problems.append(
          Problem(path: name + "/" + set.folderPath, reason: "no image ThumbForge reads; skipped"))
        continue
      }
      let folder = set.group.joined(separator: "/")
      let master = starter.copy(light, of: set, from: catalog, into: folder, suffix: "")
      if let dark = set.largest(dark: true) {
        _ = starter.copy(dark, of: set, from: catalog, into: folder, suffix: "~dark")
      }
      let scales = Set(set.images.filter { !$0.isDark }.compactMap(\.scale)).sorted()
      scaleSets.append((set, scales, master))
      starter.imageSets += 1
    }
    let counts = Dictionary(scaleSets.map { ($0.scales, 1) }, uniquingKeysWith: +)
    // The most frequent scale set (ties: the one that sorts first) goes to the top level.
    let common =
      counts.keys.sorted { a, b in
        counts[a]! != counts[b]! ? counts[a]! > counts[b]! : a.lexicographicallyPrecedes(b)
      }.first ?? [2, 3]
    var presets: [(name: String, scales: [Int])] = []
    var rules: [(match: String, recipe: String)] = []
    for item in scaleSets where item.scales != common && !item.scales.isEmpty {
      let preset = "variants-" + item.scales.map { "\($0)x" }.joined(separator: "-")
      if !presets.contains(where: { $0.name == preset }) { presets.append((preset, item.scales)) }
      rules.append((globLiteral(item.master), preset))
    }
    starter.files.insert(
      File(
        path: "thumbforge.yml",
        text: StarterConfig.fromCatalog(
          name: name, imageSets: starter.imageSets, scales: common.isEmpty ? [2, 3] : common,
          presets: presets, rules: rules, providesNamespace: existing.providesNamespace)),
      at: 0)
    return starter
  }

  /// Adds the copy of one image as `Name{suffix}@Nx.ext`; returns its path.
  private mutating func copy(
    _ image: ExistingCatalog.Image, of set: ExistingCatalog.ImageSet, from catalog: URL,
    into folder: String, suffix: String
  ) -> String {
    let ext = (image.fileName as NSString).pathExtension
    let scale = image.scale.map { "@\($0)x" } ?? ""
    let fileName = set.name + suffix + scale + (ext.isEmpty ? "" : "." + ext)
    let path = folder.isEmpty ? fileName : folder + "/" + fileName
    files.append(
      File(
        path: path,
        source: catalog.appendingPathComponent(set.folderPath).appendingPathComponent(
          image.fileName)))
    return path
  }

  /// `path` as a glob matching only itself (glob characters, which cannot be escaped, match
  /// any one character instead).
  static func globLiteral(_ path: String) -> String {
    String(path.map { "*?{},\"\\".contains($0) ? "?" : $0 })
  }

  /// Refuses a catalog inside the asset folder (discovery would read it as masters beside
  /// their copies) and a folder inside the catalog.
  package static func checkPlacement(catalog: URL, folder: URL) throws(Refusal) {
    if FolderPath.isInside(catalog, folder: folder) || FolderPath.isInside(folder, folder: catalog)
    {
      throw Refusal(
        description:
          "\(catalog.path) and \(folder.path): the asset folder and the catalog must not contain each other; choose a folder beside the catalog"
      )
    }
  }

  /// Writes every file into `folder` (created when missing); refuses, writing nothing, when
  /// any of them exists.
  package func write(into folder: URL) throws(Refusal) {
    for file in files {
      let url = folder.appendingPathComponent(file.path)
      if FileManager.default.fileExists(atPath: url.path) {
        throw Refusal(
          description:
            "\(url.path) already exists; init never overwrites a file (move it away, or choose another folder)"
        )
      }
    }
    for file in files {
      let url = folder.appendingPathComponent(file.path)
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let source = file.source {
          try FileManager.default.copyItem(at: source, to: url)
        } else {
          try Data((file.text ?? "").utf8).write(to: url, options: .withoutOverwriting)
        }
      } catch {
        throw Refusal(description: "\(url.path): cannot write (\(error.localizedDescription))")
      }
    }
  }
}
