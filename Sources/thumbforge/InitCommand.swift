import ArgumentParser
import Foundation
import ThumbForge

/// `thumbforge init`: a starting `thumbforge.yml`, or an asset folder made from a catalog a
/// team already has.
struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract:
      "Start an asset folder: a commented thumbforge.yml, or masters from an existing catalog.",
    discussion: """
      Without --from, writes a commented starter thumbforge.yml into the folder. With --from, \
      adopts an Xcode asset catalog: copies every set folder of it (.imageset, .colorset, \
      .appiconset …) with all its files, and every group's Contents.json, into the folder at \
      the same paths, and writes a thumbforge.yml whose output is the catalog itself, so that \
      'thumbforge build FOLDER' gives the catalog back unchanged. Put the folder beside the \
      catalog (not inside it). Never overwrites: when a file it would write exists, it writes \
      nothing.
      Exit 0 when everything was written, 1 when it was written but something will not come \
      back as it was (each is listed), 2 when nothing was written (a file exists, the catalog \
      is missing, or a usage error).
      """)

  @Argument(help: "The asset folder to write (created when missing).", completion: .directory)
  var folder: String = "Assets"

  @Option(
    name: .long, help: "An existing asset catalog (.xcassets) to take the masters from.",
    completion: .directory)
  var from: String?

  func run() throws {
    let folderURL = URL(fileURLWithPath: folder).standardizedFileURL
    var starter: StarterFolder
    do {
      if let from {
        let catalog = URL(fileURLWithPath: from).standardizedFileURL
        try StarterFolder.checkPlacement(catalog: catalog, folder: folderURL)
        starter = try StarterFolder.fromCatalog(catalog, folder: folderURL)
      } else {
        starter = StarterFolder.starter()
      }
      try starter.write(into: folderURL)
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      throw ExitCode(2)
    }
    for problem in starter.problems {
      FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
    }
    let config = folderURL.appendingPathComponent("thumbforge.yml").path
    if from == nil {
      print("wrote \(config)")
    } else {
      let copied = starter.files.count
      print(
        "wrote \(config) and \(copied) file\(copied == 1 ? "" : "s") of \(starter.sets) set\(starter.sets == 1 ? "" : "s") from \(from ?? "")"
          + (starter.problems.isEmpty
            ? "" : "; \(starter.problems.count) to look at (listed above)")
      )
    }
    throw ExitCode(starter.problems.isEmpty ? 0 : 1)
  }
}
