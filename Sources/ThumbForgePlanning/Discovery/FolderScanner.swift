package import Foundation
internal import ThumbForgeBasics

/// Walks an asset folder: hidden entries, the catalog and the configuration are skipped;
/// unreadable folders and symlink loops are reported, not fatal. When `confined` (`serve`),
/// entries whose real path is outside the folder (symbolic links leaving it) are skipped
/// and reported.
package enum FolderScanner {
  package static func scan(folder: URL, skipping skipped: Set<String> = [], confined: Bool = false)
    -> (files: [ScannedFile], problems: [Problem])
  {
    var files: [ScannedFile] = []
    var problems: [Problem] = []
    var visited = Set<String>()
    let root = folder.standardizedFileURL.path
    let skippedPaths = Set(skipped.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    let realRoot = (root as NSString).resolvingSymlinksInPath

    func walk(_ path: String, relative: String) {
      let real = (path as NSString).resolvingSymlinksInPath
      guard visited.insert(real).inserted else {
        problems.append(
          Problem(path: relative, reason: "symbolic link loop (already visited \(real)); skipped"))
        return
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: path)
      } catch {
        problems.append(
          Problem(
            path: relative.isEmpty ? "." : relative,
            reason: "cannot read folder (permission denied or unreadable); skipped"))
        return
      }
      let opened = OpenFolder(path: path)
      for name in names.sorted() where !name.hasPrefix(".") {
        let child = path + "/" + name
        let childRelative = relative.isEmpty ? name : relative + "/" + name
        if skippedPaths.contains(child) { continue }
        if confined {
          let real = (child as NSString).resolvingSymlinksInPath
          guard real.hasPrefix(realRoot + "/") else {
            problems.append(
              Problem(path: childRelative, reason: "symbolic link leaves the asset folder; skipped")
            )
            continue
          }
        }
        guard let info = opened.info(of: name) else {
          problems.append(
            Problem(path: childRelative, reason: "cannot read (broken link or no permission)"))
          continue
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
          walk(child, relative: childRelative)
        } else if (info.st_mode & S_IFMT) == S_IFREG {
          files.append(
            ScannedFile(relativePath: childRelative, facts: FileFacts(info)))
        }
      }
    }

    walk(root, relative: "")
    return (files, problems)
  }
}
