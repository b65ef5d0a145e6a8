package import Foundation
internal import ThumbForgeBasics
package import ThumbForgePlanning

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

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
  /// The configuration of a folder made from a catalog, given how many of the JPEG and PNG
  /// files copied carry metadata; nil: the commented starter.
  var catalogConfig: (@Sendable (Int) -> String)?

  /// Only a commented starter `thumbforge.yml`.
  package static func starter() -> StarterFolder { StarterFolder() }

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
    let walk = CatalogWalk(root: catalog, name: name)
    starter.files = walk.files
    starter.problems = walk.problems
    starter.sets = walk.sets
    let output = FolderPath.climbingPath(of: catalog, from: folder)
    let (sets, groups) = (walk.sets, walk.groups)
    starter.catalogConfig = { withMetadata in
      StarterConfig.fromCatalog(
        name: name, output: output, sets: sets, groups: groups, withMetadata: withMetadata)
    }
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

  /// Writes every file into `folder` (created when missing), then the configuration;
  /// refuses, writing nothing, when any of them exists. A source that cannot be read is
  /// added to ``problems`` and not copied. Each file is read once and written once, into
  /// folders made once (adopting a large catalog is mostly creating its files).
  package mutating func write(into folder: URL) throws(Refusal) {
    let paths = files.map(\.path) + ["thumbforge.yml"]
    if FileManager.default.fileExists(atPath: folder.path) {
      for path in paths {
        let url = folder.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: url.path) {
          throw Refusal(
            description:
              "\(url.path) already exists; init never overwrites a file (move it away, or choose another folder)"
          )
        }
      }
    }
    try Self.makeFolders(for: paths, in: folder)
    var withMetadata = 0
    for file in files {
      let url = folder.appendingPathComponent(file.path)
      let bytes: [UInt8]
      if let source = file.source {
        guard let data = FileManager.default.contents(atPath: source.path) else {
          problems.append(
            Problem(path: file.path, reason: "cannot be read in the catalog; not copied"))
          continue
        }
        bytes = Array(data)
        if ContainerMetadata.stripped(bytes) != nil { withMetadata += 1 }
      } else {
        bytes = Array((file.text ?? "").utf8)
      }
      try Self.create(url, bytes)
    }
    let config = catalogConfig.map { $0(withMetadata) } ?? StarterConfig.commented
    try Self.create(folder.appendingPathComponent("thumbforge.yml"), Array(config.utf8))
  }

  /// Makes `folder` and every folder the files at `paths` (relative to it) lie in, parents
  /// first, each once.
  private static func makeFolders(for paths: [String], in folder: URL) throws(Refusal) {
    var folders = Set<String>()
    for path in paths {
      var parts = path.split(separator: "/").dropLast()
      while !parts.isEmpty {
        guard folders.insert(parts.joined(separator: "/")).inserted else { break }
        parts = parts.dropLast()
      }
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw Refusal(description: "\(folder.path): cannot create (\(error.localizedDescription))")
    }
    for relative in folders.sorted(by: { $0.count < $1.count }) {
      let path = folder.appendingPathComponent(relative).path
      if mkdir(path, 0o777) != 0 && errno != EEXIST {
        throw Refusal(description: "\(path): cannot create (\(String(cString: strerror(errno))))")
      }
    }
  }

  /// Creates the file at `url` with `bytes`; never replaces one (`O_EXCL`).
  private static func create(_ url: URL, _ bytes: [UInt8]) throws(Refusal) {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      throw Refusal(
        description: "\(url.path): cannot write (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        writeBytes(descriptor, raw.baseAddress! + offset, raw.count - offset)
      }
      guard written > 0 else {
        throw Refusal(
          description: "\(url.path): cannot write (\(String(cString: strerror(errno))))")
      }
      offset += written
    }
  }
}

/// The C library's `write(2)` (a free function, so that the name is not the method's).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
