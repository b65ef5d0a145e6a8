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
}
