import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog

@Suite("Open folder")
struct OpenFolderTests {
  @Test("looks files up like stat on the full path, and falls back to it when it must")
  func matchesStat() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "open-folder-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("A.imageset"), withIntermediateDirectories: true)
    try Data("12345".utf8).write(to: root.appendingPathComponent("A.imageset/A@2x.png"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("link.png").path,
      withDestinationPath: "A.imageset/A@2x.png")
    let outside = root.path + "/A.imageset/A@2x.png"

    for folder in [OpenFolder(path: root.path), OpenFolder(path: root.path + "/missing")] {
      for relative in ["A.imageset/A@2x.png", "link.png", "A.imageset", "", "nothing.png", outside]
      {
        let expected = FileFacts.current(at: folder.path + "/" + relative)
        let actual = FileFacts.current(at: relative, in: folder)
        #expect(actual == expected, "\(folder.path) \(relative)")
      }
    }
    let opened = OpenFolder(path: root.path)
    #expect(FileFacts.current(at: "link.png", in: opened)?.size == 5)  // follows links
    #expect(FileFacts.current(at: outside, in: opened) == nil)  // never outside the folder
    #expect(FileFacts.current(at: "", in: opened) != nil)  // the folder itself
  }
}
