internal import Foundation

/// Walks an existing asset catalog for `thumbforge init --from`: every file to carry into the
/// new asset folder at the same path (set folders whole, group and root `Contents.json`
/// files), and what cannot come back as it was.
struct CatalogWalk {
  let root: URL
  /// The catalog's name, which problems' paths start with.
  let name: String
  var files: [StarterFolder.File] = []
  var problems: [Problem] = []
  /// Set folders taken.
  var sets = 0
  /// Group folders with a `Contents.json` of their own.
  var groups = 0
  /// JPEG and PNG files whose metadata a build would strip (so `keep-metadata` matters).
  var withMetadata = 0

  /// Visits the folder at `path` (catalog-relative, `""` for the root).
  mutating func visit(_ path: String) {
    let url = path.isEmpty ? root : root.appendingPathComponent(path)
    for (child, isFolder) in entries(of: url, path: path) {
      let childPath = path.isEmpty ? child : path + "/" + child
      if isFolder {
        if SetFolder.isSetFolderName(child) { takeSet(childPath) } else { visit(childPath) }
      } else if child == SetFolder.contentsName {
        if !path.isEmpty { groups += 1 }
        take(childPath)
      } else {
        problems.append(
          Problem(
            path: name + "/" + childPath,
            reason: "not inside a set folder, so Xcode does not read it; not copied"))
      }
    }
  }

  /// Takes one set folder whole, and checks that every `filename` its `Contents.json` files
  /// list is there.
  private mutating func takeSet(_ path: String) {
    var taken: [String] = []
    collect(path, into: &taken)
    let contents = path + "/" + SetFolder.contentsName
    guard taken.contains(contents) else {
      problems.append(
        Problem(
          path: name + "/" + path,
          reason: "has no Contents.json, so Xcode does not read it as a set; not copied"))
      return
    }
    sets += 1
    for file in taken {
      take(file)
      guard file.hasSuffix("/" + SetFolder.contentsName) else { continue }
      let folder = String(file.dropLast(SetFolder.contentsName.count + 1))
      guard let listed = Self.fileNames(in: root.appendingPathComponent(file)) else {
        problems.append(
          Problem(
            path: name + "/" + file,
            reason: "is not valid JSON, so Xcode refuses the set; carried as it is"))
        continue
      }
      // A listed name may be a file or a nested set folder (an image stack's layers).
      for listed in listed
      where !FileManager.default.fileExists(
        atPath: root.appendingPathComponent(folder + "/" + listed).path)
      {
        problems.append(
          Problem(
            path: name + "/" + folder,
            reason: "Contents.json lists '\(listed)', which is missing; carried as it is"))
      }
    }
  }

  /// Every file under the folder at `path`, recursively (hidden ones left out).
  private mutating func collect(_ path: String, into taken: inout [String]) {
    for (child, isFolder) in entries(of: root.appendingPathComponent(path), path: path) {
      let childPath = path + "/" + child
      if isFolder { collect(childPath, into: &taken) } else { taken.append(childPath) }
    }
  }

  /// Adds one file to copy, counting a JPEG or PNG that carries metadata.
  private mutating func take(_ path: String) {
    let url = root.appendingPathComponent(path)
    guard FileManager.default.isReadableFile(atPath: url.path) else {
      problems.append(Problem(path: name + "/" + path, reason: "cannot be read; not copied"))
      return
    }
    let ext = url.pathExtension.lowercased()
    if ["jpg", "jpeg", "png"].contains(ext),
      let data = FileManager.default.contents(atPath: url.path),
      JPEGMetadata.stripped(Array(data)) ?? PNGMetadata.stripped(Array(data)) != nil
    {
      withMetadata += 1
    }
    files.append(StarterFolder.File(path: path, source: url))
  }

  /// The folder's entries, sorted, hidden ones left out; an unreadable folder is a problem.
  private mutating func entries(of url: URL, path: String) -> [(String, Bool)] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
      problems.append(
        Problem(path: name + (path.isEmpty ? "" : "/" + path), reason: "cannot be read; not copied")
      )
      return []
    }
    return names.sorted().filter { !$0.hasPrefix(".") }.map { child in
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(
        atPath: url.appendingPathComponent(child).path, isDirectory: &isFolder)
      return (child, isFolder.boolValue)
    }
  }

  /// The `filename` values of a `Contents.json` (of its `images`, `data`, `layers` … lists);
  /// nil when it is not a JSON object.
  static func fileNames(in url: URL) -> [String]? {
    guard let data = FileManager.default.contents(atPath: url.path),
      let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else { return nil }
    return json.values.flatMap { value in
      (value as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String }
    }
  }
}
