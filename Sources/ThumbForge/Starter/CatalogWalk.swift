internal import Foundation
internal import ThumbForgePlanning

/// Sorts an existing asset catalog's files for `thumbforge init --from`: every file to carry
/// into the new asset folder at the same path (set folders whole, group and root
/// `Contents.json` files, told apart as discovery tells them: ``SetFolder``), and what
/// cannot come back as it was.
struct CatalogWalk {
  /// The catalog's name, which problems' paths start with.
  let name: String
  var files: [StarterFolder.File] = []
  var problems: [Problem] = []
  /// Set folders taken.
  var sets = 0
  /// Group folders with a `Contents.json` of their own.
  var groups = 0

  /// Walks the catalog at `root` (hidden files left out, as Xcode leaves them).
  init(root: URL, name: String) {
    self.name = name
    let scan = FolderScanner.scan(folder: root)
    problems = scan.problems.map { Problem(path: name + "/" + $0.path, reason: $0.reason) }
    var sets: [String: [String]] = [:]
    for file in scan.files.map(\.relativePath) {
      switch SetFolder.place(of: file) {
      case .inSet(let folder): sets[folder, default: []].append(file)
      case .groupContents:
        groups += 1
        take(file, from: root)
      case .rootContents: take(file, from: root)
      case .other:
        problems.append(
          Problem(
            path: name + "/" + file,
            reason: "not inside a set folder, so Xcode does not read it; not copied"))
      }
    }
    for folder in sets.keys.sorted() { takeSet(folder, files: sets[folder]!, from: root) }
  }

  /// Takes one set folder whole, and checks that every `filename` its `Contents.json` files
  /// list is there (a file, or a nested set folder such as an image stack's layer).
  private mutating func takeSet(_ path: String, files: [String], from root: URL) {
    let contents = path + "/" + SetFolder.contentsName
    guard files.contains(contents) else {
      problems.append(
        Problem(
          path: name + "/" + path,
          reason: "has no Contents.json, so Xcode does not read it as a set; not copied"))
      return
    }
    sets += 1
    let present = Set(files)
    for file in files {
      take(file, from: root)
      guard file.hasSuffix("/" + SetFolder.contentsName) else { continue }
      let folder = String(file.dropLast(SetFolder.contentsName.count + 1))
      guard let listed = Self.fileNames(in: root.appendingPathComponent(file)) else {
        problems.append(
          Problem(
            path: name + "/" + file,
            reason: "is not valid JSON, so Xcode refuses the set; carried as it is"))
        continue
      }
      let made = Self.derivations(of: root.appendingPathComponent(file), folder, present)
      for listed in listed {
        let child = folder + "/" + listed
        if present.contains(child) || files.contains(where: { $0.hasPrefix(child + "/") }) {
          continue
        }
        let fate =
          made[listed].map { "the build makes it from '\($0)'" } ?? "carried as it is"
        problems.append(
          Problem(
            path: name + "/" + folder,
            reason: "Contents.json lists '\(listed)', which is missing; \(fate)"))
      }
    }
  }

  /// The missing files of an image set that a build makes from larger ones, by name, with
  /// the name of the file each is made from (``AsIsDerivation``).
  private static func derivations(of contents: URL, _ folder: String, _ present: Set<String>)
    -> [String: String]
  {
    guard let data = FileManager.default.contents(atPath: contents.path),
      let text = String(validating: data, as: UTF8.self)
    else { return [:] }
    let found = AsIsDerivation.find(contents: text, folder: folder, present: present)
    return Dictionary(
      found.map { ($0.fileName, String($0.from.dropFirst(folder.count + 1))) },
      uniquingKeysWith: { a, _ in a })
  }

  /// Adds one file to copy.
  private mutating func take(_ path: String, from root: URL) {
    files.append(StarterFolder.File(path: path, source: root.appendingPathComponent(path)))
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
