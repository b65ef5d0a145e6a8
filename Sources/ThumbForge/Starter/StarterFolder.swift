package import Foundation

/// What `thumbforge init` writes: a `thumbforge.yml` and, from an existing catalog, an asset
/// folder whose build gives the catalog back unchanged (its set folders and group
/// `Contents.json` files, carried as they are). It never overwrites: when any file it would
/// write exists, it writes nothing.
///
/// ```swift
/// let art = URL(fileURLWithPath: "App/Art")
/// let starter = try StarterFolder.fromCatalog(URL(fileURLWithPath: "App/Assets.xcassets"), folder: art)
/// try starter.write(into: art)
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
  /// What cannot come back as it was, each naming its set or file.
  package var problems: [Problem] = []
  /// How many set folders were taken.
  package var sets = 0

  /// Only a commented starter `thumbforge.yml`.
  package static func starter() -> StarterFolder {
    StarterFolder(files: [File(path: "thumbforge.yml", text: StarterConfig.commented)])
  }

  /// An asset folder whose build gives back `catalog` unchanged, for the asset folder
  /// `folder`: every set folder (`.imageset`, `.colorset`, `.appiconset` …) with all its
  /// files, every group folder's `Contents.json` and the root's, at the same paths; and a
  /// `thumbforge.yml` whose `output` is `catalog` itself (see ``StarterConfig``). What
  /// cannot come back as it was is a problem naming its set: a set folder without a
  /// `Contents.json`, a `filename` it lists that is missing, a file outside every set, an
  /// unreadable file.
  package static func fromCatalog(_ catalog: URL, folder: URL) throws(Refusal) -> StarterFolder {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: catalog.path, isDirectory: &isFolder),
      isFolder.boolValue
    else { throw Refusal(description: "\(catalog.path): no such asset catalog") }
    let name = catalog.standardizedFileURL.lastPathComponent
    var starter = StarterFolder()
    var walk = CatalogWalk(root: catalog, name: name)
    walk.visit("")
    starter.files = walk.files
    starter.problems = walk.problems
    starter.sets = walk.sets
    starter.files.insert(
      File(
        path: "thumbforge.yml",
        text: StarterConfig.fromCatalog(
          name: name, output: FolderPath.climbingPath(of: catalog, from: folder),
          sets: walk.sets, groups: walk.groups, withMetadata: walk.withMetadata)),
      at: 0)
    return starter
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
