import Foundation

/// One Swift file of the package, by the folder it sits in (relative to its module folder).
struct SourceFile {
  var folder: String
  var name: String
  var text: String
}

/// The package's source files, read for the structure tests.
struct SourceTree {
  /// The package root.
  var root: URL

  /// The core's folders from the bottom up: each may use the folders before it, never those
  /// after it. The Layers table of docs/architecture.md draws the same order.
  static let coreLayers = [
    "Support", "Geometry", "Recipes", "Config", "Workspace", "Manifest", "Catalog", "Discovery",
    "Planning", "Rendering", "Writers", "Pipeline", "Sharding", "Serving", "Starter",
    "Fuzzing",
  ]

  /// Every `.swift` file under `folder` (relative to the root), sorted by path.
  func swiftFiles(under folder: String) throws -> [SourceFile] {
    let base = root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    var files: [SourceFile] = []
    for case let path as String in walker where path.hasSuffix(".swift") {
      let url = base.appendingPathComponent(path)
      let parent = (path as NSString).deletingLastPathComponent
      files.append(
        SourceFile(
          folder: parent.isEmpty ? folder : folder + "/" + parent, name: url.lastPathComponent,
          text: try String(contentsOf: url, encoding: .utf8)))
    }
    return files.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }
  }

  /// The files of a module folder by their first-level subfolder.
  func layers(of module: String) throws -> [String: [SourceFile]] {
    var layers: [String: [SourceFile]] = [:]
    for var file in try swiftFiles(under: module) {
      let relative = file.folder.dropFirst(module.count).drop { $0 == "/" }
      file.folder = String(relative.split(separator: "/").first ?? "")
      layers[file.folder, default: []].append(file)
    }
    return layers
  }

  /// Each use, in a module folder's files, of a type declared in a folder above the file's.
  func upwardUses(in module: String, order: [String]) throws -> [String] {
    Self.upwardUses(try layers(of: module).values.flatMap { $0 }, order: order)
  }

  /// Each use of a type declared in a later folder of `order` than the using file's, as
  /// `Folder/File.swift uses Type (Folder)`, sorted.
  static func upwardUses(_ files: [SourceFile], order: [String]) -> [String] {
    let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    var owner: [String: String] = [:]
    for file in files {
      for name in SwiftText.topLevelTypes(in: file.text) { owner[name] = file.folder }
    }
    var uses: [String] = []
    for file in files {
      guard let mine = rank[file.folder] else { continue }
      for name in SwiftText.typeNames(in: file.text).sorted() {
        guard let folder = owner[name], let theirs = rank[folder], theirs > mine else { continue }
        uses.append("\(file.folder)/\(file.name) uses \(name) (\(folder))")
      }
    }
    return uses.sorted()
  }
}
