internal import Foundation
internal import ThumbForgeCatalog

/// The JSON written beside an imageset's web sizes (`Flags/Austria-flag.json`): what a page
/// needs for `<picture>` and `srcset` — the image's pixel size (for `width` and `height`,
/// which reserve its space), a `<source>` per format in `web: formats:` order, the dark
/// appearance's for `prefers-color-scheme: dark`, and the placeholder when there is one.
/// Keys sorted, so the same files always give the same bytes.
struct WebJSON: Encodable, Equatable {
  /// The imageset's name (its catalog lookup name's last part).
  var name: String
  /// The largest any-appearance file's size: the image's aspect and intrinsic size.
  var width: Int
  var height: Int
  /// The ThumbHash in base64 (`placeholders: thumbhash`).
  var placeholder: String?
  var sources: [Source]
  /// The dark appearance's sources, when the imageset has dark art.
  var dark: [Source]?

  /// One format's files: a `<source type srcset>`.
  struct Source: Encodable, Equatable {
    /// The MIME type (`image/webp`).
    var type: String
    /// `Name-320w.webp 320w, Name-640w.webp 640w`: file names relative to the JSON.
    var srcset: String
    /// The largest file: the `<img src>` of browsers without `srcset`.
    var src: String
    var files: [File]
  }

  struct File: Encodable, Equatable {
    var src: String
    var width: Int
    var height: Int
  }

  /// The JSON of imageset `name`'s web files `files` (its manifest records, in plan order).
  init(name: String, files: [ManifestDerivedFile], placeholder: String?) {
    self.name = name
    let any = files.filter { $0.appearance == nil }
    let largest = any.max { $0.width * $0.height < $1.width * $1.height }
    width = largest?.width ?? 0
    height = largest?.height ?? 0
    self.placeholder = placeholder
    sources = Self.sources(any)
    let dark = files.filter { $0.appearance != nil }
    self.dark = dark.isEmpty ? nil : Self.sources(dark)
  }

  /// One source per file extension, in the order the files list them, widths ascending.
  private static func sources(_ files: [ManifestDerivedFile]) -> [Source] {
    var order: [String] = []
    var byExtension: [String: [ManifestDerivedFile]] = [:]
    for file in files {
      let ext = (file.path as NSString).pathExtension
      if byExtension[ext] == nil { order.append(ext) }
      byExtension[ext, default: []].append(file)
    }
    return order.map { ext in
      let sorted = byExtension[ext]!.sorted { $0.width < $1.width }
      let entries = sorted.map {
        File(src: ($0.path as NSString).lastPathComponent, width: $0.width, height: $0.height)
      }
      return Source(
        type: mimeType(ext),
        srcset: entries.map { "\($0.src) \($0.width)w" }.joined(separator: ", "),
        src: entries.last!.src, files: entries)
    }
  }

  /// The MIME type of a web file's extension.
  private static func mimeType(_ ext: String) -> String {
    switch ext {
    case "jpg": "image/jpeg"
    default: "image/" + ext
    }
  }

  /// The file's bytes: pretty-printed, keys sorted, slashes unescaped, a final line feed.
  var bytes: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding plain strings and integers cannot fail.
    return Array((try? encoder.encode(self)) ?? Data()) + [UInt8(ascii: "\n")]
  }
}
