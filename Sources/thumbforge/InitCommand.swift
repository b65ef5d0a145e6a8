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
      copies the largest-scale image of each imageset of the catalog into the folder (named \
      after the imageset, in folders after the catalog's groups: Icons/Logo@3x.png, \
      Icons/Logo~dark@3x.png) and writes a thumbforge.yml whose build gives back the same \
      imagesets. Never overwrites: when a file it would write exists, it writes nothing.
      Exit 0 when everything was written, 1 when it was written but some imagesets or images \
      could not be taken (each is listed), 2 when nothing was written (a file exists, the \
      catalog is missing, or a usage error).
      """)

  @Argument(help: "The asset folder to write (created when missing).", completion: .directory)
  var folder: String = "Assets"

  @Option(
    name: .long, help: "An existing asset catalog (.xcassets) to take the masters from.",
    completion: .directory)
  var from: String?

  func run() throws {
    let folderURL = URL(fileURLWithPath: folder).standardizedFileURL
    let starter: StarterFolder
    do {
      if let from {
        let catalog = URL(fileURLWithPath: from).standardizedFileURL
        try StarterFolder.checkPlacement(catalog: catalog, folder: folderURL)
        starter = try StarterFolder.fromCatalog(catalog)
      } else {
        starter = StarterFolder.starter()
      }
      try starter.write(into: folderURL)
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      throw ExitCode(2)
    }
    for note in starter.notes { print("note: \(note)") }
    for problem in starter.problems {
      FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
    }
    let config = folderURL.appendingPathComponent("thumbforge.yml").path
    if from == nil {
      print("wrote \(config)")
    } else {
      let masters = starter.files.count - 1
      print(
        "wrote \(config) and \(masters) master\(masters == 1 ? "" : "s") from \(starter.imageSets) imageset\(starter.imageSets == 1 ? "" : "s")"
          + (starter.problems.isEmpty ? "" : "; \(starter.problems.count) not taken (listed above)")
      )
    }
    throw ExitCode(starter.problems.isEmpty ? 0 : 1)
  }
}
