internal import Foundation

/// The files of a scanned asset folder that are masters, each with its asset's group and
/// name: loose files are named by their path (`Flags/Italy@2x.png` → group `Flags`, asset
/// `Italy`), images of an existing catalog (`Legacy.xcassets`) by their imageset's folders and
/// `Contents.json` (`Legacy.xcassets/Icons/Old.imageset/Old@2x.png` → group `Icons`, asset
/// `Old`, 2x), so that a catalog is read as masters and never nested into the output.
package struct MasterCandidates {
  /// A file taken as a master.
  package struct Candidate {
    package var file: ScannedFile
    package var name: MasterName
    package var group: [String]
  }

  package var candidates: [Candidate] = []
  /// Files that look like masters but cannot be taken (an unknown scale suffix, an image of an
  /// existing catalog that is not read), each with why.
  package var problems: [Problem] = []
  /// Files that are not masters (not an error).
  package var notes: [Problem] = []
  /// Set folders and group `Contents.json` files, carried into the catalog as they are
  /// (``SetFolder``): each folder's files, by the folder's asset-folder-relative path.
  package var carried: [String: [ScannedFile]] = [:]
  /// The folder's own `Contents.json`: the catalog root's, when the build writes one.
  var rootContents: ScannedFile?

  /// Sorts `files` of `folder` into masters, problems and notes.
  init(files: [ScannedFile], folder: URL, darkSuffix: String) {
    var catalogs: [String: [ScannedFile]] = [:]
    for file in files {
      let path = file.relativePath
      if let prefix = Self.catalogPrefix(of: path) {
        catalogs[prefix, default: []].append(file)
        continue
      }
      switch SetFolder.place(of: path) {
      case .inSet(let folder), .groupContents(let folder):
        carried[folder, default: []].append(file)
        continue
      case .rootContents:
        rootContents = file
        continue
      case .other:
        break
      }
      var group = path.split(separator: "/").map(String.init)
      let fileName = group.removeLast()
      if let problem = MasterName.unknownScaleProblem(path: path) {
        problems.append(problem)
      } else if let name = MasterName(fileName: fileName, darkSuffix: darkSuffix) {
        candidates.append(Candidate(file: file, name: name, group: group))
      } else {
        notes.append(Problem(path: path, reason: MasterName.whyNot(fileName: fileName)))
      }
    }
    for prefix in catalogs.keys.sorted() {
      take(catalog: prefix, files: catalogs[prefix]!, folder: folder)
    }
  }

  /// The images of the existing catalog at `prefix` (relative to the folder).
  private mutating func take(catalog prefix: String, files: [ScannedFile], folder: URL) {
    let catalog = ExistingCatalog.read(folder.appendingPathComponent(prefix), prefix: prefix)
    let outer = prefix.split(separator: "/").dropLast().map(String.init)
    var byPath = Dictionary(files.map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
    problems += catalog.problems
    for problem in catalog.problems { byPath[problem.path] = nil }
    for set in catalog.imageSets {
      for image in set.images {
        let path = prefix + "/" + set.folderPath + "/" + image.fileName
        guard let file = byPath.removeValue(forKey: path) else { continue }
        let ext = (image.fileName as NSString).pathExtension.lowercased()
        guard MasterName.rasterExtensions.contains(ext) || MasterName.vectorExtensions.contains(ext)
        else {
          notes.append(Problem(path: path, reason: MasterName.whyNot(fileName: image.fileName)))
          continue
        }
        candidates.append(
          Candidate(
            file: file,
            name: MasterName(
              asset: set.name, scale: image.scale, isDark: image.isDark, fileExtension: ext),
            group: outer + set.group))
      }
    }
    for path in byPath.keys.sorted() where !path.hasSuffix("/Contents.json") {
      notes.append(
        Problem(
          path: path,
          reason:
            "inside the existing catalog \(prefix) but not an image its imagesets list; skipped"))
    }
  }

  /// The path of the existing catalog (`…/Name.xcassets`) that `path` lies in, if any.
  static func catalogPrefix(of path: String) -> String? {
    let components = path.split(separator: "/")
    guard
      let index = components.dropLast().firstIndex(where: {
        $0.lowercased().hasSuffix(".xcassets")
      })
    else { return nil }
    return components[...index].joined(separator: "/")
  }
}
