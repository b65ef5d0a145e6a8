package import Foundation
internal import Vips

/// The pipeline property's checks of what a build of a ``GeneratedAssetFolder`` left:
/// problems that name the folder's files, a manifest whose every output exists and is what
/// it says, and imagesets whose `Contents.json` lists exactly their files.
package struct CatalogAudit {
  package let folder: GeneratedAssetFolder
  /// The asset folder.
  package let assets: URL
  /// `manifest.json` (by default `../out/manifest.json` from the asset folder).
  package let manifest: URL
  /// Whether WebP outputs go unchecked for metadata: libvips 8.14's `webpsave` writes an
  /// EXIF block even with `strip` (the master's EXIF, GPS position included, or a default
  /// one), a known failure tolerated only on request
  /// (`THUMBFORGE_PROPERTY_ALLOW=webp-metadata`) so that a long run can look for others.
  package var allowsWebPMetadata: Bool

  package init(
    folder: GeneratedAssetFolder, assets: URL, manifest: URL? = nil,
    allowsWebPMetadata: Bool = false
  ) {
    self.allowsWebPMetadata = allowsWebPMetadata
    self.folder = folder
    self.assets = assets
    self.manifest =
      manifest
      ?? assets.deletingLastPathComponent().appendingPathComponent("out/manifest.json")
  }

  /// The problems (`PATH: reason`, without `error: `) that do not start with a file or
  /// folder of the asset folder.
  package func problemViolations(_ problems: [String]) -> [String] {
    var known = folder.files
    for path in folder.files {
      var parts = path.split(separator: "/").dropLast()
      while !parts.isEmpty {
        known.insert(parts.joined(separator: "/"))
        parts = parts.dropLast()
      }
    }
    return problems.filter { problem in
      !known.contains { problem.hasPrefix($0 + ": ") }
    }.map { "a problem does not name a file of the folder: \($0)" }
  }

  /// The `error: ` lines of a command's standard error, without the prefix.
  package static func errorLines(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map {
      String($0.dropFirst("error: ".count))
    }
  }

  /// Every way the manifest and catalog break the output contract (empty when none):
  /// each manifest output exists, decodes in full, has its recorded size, the format its
  /// extension names, 8 bits per band, alpha for flags, no metadata unless the recipe keeps
  /// it; each imageset's `Contents.json` lists exactly its image files, which the manifest
  /// lists.
  package func catalogViolations() -> [String] {
    var violations: [String] = []
    guard let data = FileManager.default.contents(atPath: manifest.path) else {
      return ["no manifest at \(manifest.path)"]
    }
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let catalogName = root["catalog"] as? String,
      let imageSets = root["imageSets"] as? [[String: Any]]
    else { return ["the manifest is not the JSON of schema 1"] }
    let catalog = manifest.deletingLastPathComponent().appendingPathComponent(catalogName)
    var listed = Set<String>()
    for set in imageSets {
      let recipeName = set["recipe"] as? String ?? "?"
      let recipe = folder.recipes[recipeName]
      let keepsMetadata = recipe?.keepsMetadata ?? false
      for output in set["outputs"] as? [[String: Any]] ?? [] {
        guard let (path, width, height) = Self.sizedFile(output) else {
          violations.append("a manifest output lacks path, width or height: \(output)")
          continue
        }
        listed.insert(path)
        violations += check(
          output: path, at: catalog.appendingPathComponent(path), width: width, height: height,
          flag: recipe?.kind == "flag", keepsMetadata: keepsMetadata, recipe: recipeName)
      }
      violations += destinationViolations(set, recipe: recipeName)
    }
    violations += contentsViolations(catalog: catalog, listed: listed)
    return violations
  }

  /// A manifest record's path, width and height (nil when one is missing).
  private static func sizedFile(_ record: [String: Any]) -> (String, Int, Int)? {
    guard let path = record["path"] as? String, let width = record["width"] as? Int,
      let height = record["height"] as? Int
    else { return nil }
    return (path, width, height)
  }

  /// What is wrong with an imageset's files beside the catalog (`web`, `android`), each
  /// checked as a catalog output is (their metadata always stripped), and its web JSON.
  private func destinationViolations(_ set: [String: Any], recipe: String) -> [String] {
    let base = manifest.deletingLastPathComponent()
    var violations: [String] = []
    for destination in ["web", "android"] {
      guard let record = set[destination] as? [String: Any] else { continue }
      for file in record["files"] as? [[String: Any]] ?? [] {
        guard let (path, width, height) = Self.sizedFile(file) else {
          violations.append("a manifest \(destination) file lacks path, width or height: \(file)")
          continue
        }
        let url = base.appendingPathComponent(path)
        if width == 0 && height == 0 && path.hasSuffix(".xml") {
          if !FileManager.default.fileExists(atPath: url.path) {
            violations.append("\(path) (\(recipe)) is in the manifest but not on disk")
          }
          continue
        }
        violations += check(
          output: path, at: url, width: width, height: height, flag: false,
          keepsMetadata: false, recipe: "\(recipe), \(destination)")
      }
      if let json = record["json"] as? String,
        !FileManager.default.fileExists(atPath: base.appendingPathComponent(json).path)
      {
        violations.append("\(json) (\(recipe)) is in the manifest but not on disk")
      }
    }
    return violations
  }

  /// What is wrong with one output file: missing, not decoding in full, another size than
  /// the manifest's, another format than its extension, not 8-bit, a flag without alpha, or
  /// metadata it should not carry.
  private func check(
    output path: String, at url: URL, width: Int, height: Int, flag: Bool, keepsMetadata: Bool,
    recipe: String
  ) -> [String] {
    guard FileManager.default.fileExists(atPath: url.path) else {
      return ["\(path) (\(recipe)) is in the manifest but not in the catalog"]
    }
    let image: VipsImage
    do {
      image = try VipsImage.load(path: url.path, options: LoadOptions(failOn: folder.failOn))
      _ = try image.average()
    } catch {
      return ["\(path) (\(recipe)) does not decode in full: \(error)"]
    }
    var found: [String] = []
    if image.width != width || image.height != height {
      found.append(
        "\(path) (\(recipe)) is \(image.width)x\(image.height), the manifest says \(width)x\(height)"
      )
    }
    let ext = url.pathExtension.lowercased()
    found += formatViolations(image, path: path, ext: ext, flag: flag, recipe: recipe)
    if !keepsMetadata {
      found += metadataViolations(image, path: path, ext: ext, recipe: recipe)
    }
    return found
  }

  /// An output read by another loader than its extension says, with an unexpected
  /// extension, not 8-bit, or a flag without alpha.
  private func formatViolations(
    _ image: VipsImage, path: String, ext: String, flag: Bool, recipe: String
  ) -> [String] {
    var found: [String] = []
    let loaders = [
      "png": "pngload", "jpg": "jpegload", "webp": "webpload", "heic": "heifload",
      "avif": "heifload",
      "svg": "svgload", "pdf": "pdfload",
    ]
    if let expected = loaders[ext], let loader = image.loader, !loader.hasPrefix(expected) {
      found.append("\(path) (\(recipe)) is named .\(ext) but is read by \(loader)")
    } else if loaders[ext] == nil {
      found.append("\(path) (\(recipe)) has an unexpected extension")
    }
    if image.format != .uchar {
      found.append("\(path) (\(recipe)) is \(image.format.rawValue), not 8-bit")
    }
    // libwebp stores an entirely opaque alpha channel as no alpha (README, *What it makes*).
    if flag && !image.hasAlpha && ext != "webp" {
      found.append("\(path) (\(recipe)) is a flag without alpha")
    }
    return found
  }

  /// Metadata an output of a recipe that strips it still carries: the master's, or a block
  /// the encoder added (except where the README documents it).
  private func metadataViolations(_ image: VipsImage, path: String, ext: String, recipe: String)
    -> [String]
  {
    guard image.hasMetadata else { return [] }
    // Under libvips 8.14 a Display P3 sibling in JPEG or HEIF keeps its profile only by not
    // stripping, and the encoder then writes a minimal EXIF block of its own (README): the
    // master's metadata must still be gone.
    let minimalBlockAllowed =
      path.contains("~P3") && ["jpg", "heic"].contains(ext) && !Vips.canKeepOnlyProfile
    // The master's own metadata (the generator's camera make, GPS position, comment), or
    // a block the encoder added.
    let fromMaster = [
      "exif-ifd0-Make", "exif-ifd3-GPSLatitude", "png-comment-0-Comment", "xmp-data",
    ].contains { image.stringField($0) != nil || image.intField($0) != nil }
    if allowsWebPMetadata && ext == "webp" {
      return []  // Tolerated on request: see allowsWebPMetadata.
    } else if fromMaster {
      return ["\(path) (\(recipe)) keeps the master's metadata (EXIF, comments)"]
    } else if minimalBlockAllowed {
      return []  // Documented: see minimalBlockAllowed.
    }
    return [
      "\(path) (\(recipe)) carries metadata its master does not have (an EXIF block the encoder wrote)"
    ]
  }

  /// Imagesets whose `Contents.json` and files differ, and image files the manifest does
  /// not list.
  private func contentsViolations(catalog: URL, listed: Set<String>) -> [String] {
    var found: [String] = []
    let fileManager = FileManager.default
    guard let items = fileManager.enumerator(atPath: catalog.path) else { return found }
    var sets: [String] = []
    while let item = items.nextObject() as? String {
      if item.hasSuffix(".imageset") || item.hasSuffix(".appiconset") { sets.append(item) }
    }
    for set in sets.sorted() {
      let folder = catalog.appendingPathComponent(set)
      let files = Set(
        ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
          $0 != "Contents.json" && !$0.hasPrefix(".")
        })
      guard
        let data = fileManager.contents(
          atPath: folder.appendingPathComponent("Contents.json").path),
        let contents = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else {
        found.append("\(set) has no readable Contents.json")
        continue
      }
      let images = contents["images"] as? [[String: Any]] ?? []
      let named = Set(images.compactMap { $0["filename"] as? String })
      if named != files {
        found.append(
          "\(set)/Contents.json lists \(named.sorted()) but the folder holds \(files.sorted())")
      }
      for file in files where !listed.contains(set + "/" + file) {
        found.append("\(set)/\(file) is in the catalog but not in the manifest")
      }
    }
    return found
  }
}
