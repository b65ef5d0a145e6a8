internal import ThumbForgeCatalog
internal import ThumbForgePlanning

/// A file an imageset's manifest entry lists, as a run looks it up on disk.
struct ListedFile {
  /// Catalog-relative for the catalog's files; relative to the manifest's folder for a
  /// destination's.
  var path: String
  /// The destination beside the catalog the file is in; nil: the catalog.
  var destination: DerivedFile.Destination?
  /// Its content hash as the manifest records it.
  var hash: String
  /// Its size as the manifest records it (nil: not recorded, a `Contents.json` or web JSON).
  var bytes: Int? = nil

  /// What its stamp is filed under in the probe cache: a destination's files' paths after a
  /// prefix no catalog path has.
  var stampKey: String { destination == nil ? path : DerivedWriter.stampPrefix + path }

  /// Of `catalog` and `base` (the manifest's folder, or what stands for it), the one
  /// ``path`` is relative to.
  func folder<Folder>(catalog: Folder, base: Folder) -> Folder {
    destination == nil ? catalog : base
  }
}

extension ManifestImageSet {
  /// Calls `body` with each file the entry lists: its outputs, its `Contents.json`, then
  /// each destination's files and web JSON.
  func forEachListedFile(_ body: (ListedFile) -> Void) {
    for output in outputs {
      body(ListedFile(path: output.path, destination: nil, hash: output.hash, bytes: output.bytes))
    }
    body(ListedFile(path: folder + "/Contents.json", destination: nil, hash: contentsHash))
    for (destination, listed) in [(DerivedFile.Destination.web, web), (.android, android)] {
      guard let listed else { continue }
      for file in listed.files {
        body(
          ListedFile(path: file.path, destination: destination, hash: file.hash, bytes: file.bytes))
      }
      if let json = listed.json {
        body(ListedFile(path: json, destination: destination, hash: listed.jsonHash ?? ""))
      }
    }
  }
}
