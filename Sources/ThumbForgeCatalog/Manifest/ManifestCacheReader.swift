package import ThumbForgeBasics

/// Parses the manifest cache's lines; any surprise makes the whole read fail.
package struct ManifestCacheReader {
  private var lines: TabSeparatedLines
  /// The destination of the last `D` line of the current imageset (its `B` lines' own).
  private var derivedDestination: String? = nil

  package init(bytes: UnsafeBufferPointer<UInt8>) {
    lines = TabSeparatedLines(bytes)
  }

  package mutating func manifest(expecting stamp: FileFacts) -> Manifest? {
    guard next(), fields == 1, lines.field(0, equals: ManifestCache.header) else { return nil }
    guard next(), kind == UInt8(ascii: "F"), fields == 5, let size = lines.integer(1),
      let modified = lines.integer(2, signed: true), let changed = lines.integer(3, signed: true),
      let inode = lines.integer(4, signed: true),
      FileFacts(size: size, modified: Int64(modified), changed: Int64(changed), inode: inode)
        == stamp
    else { return nil }
    guard next(), kind == UInt8(ascii: "M"), fields == 7,
      let schema = lines.integer(1, signed: true),
      let tool = text(2), let toolVersion = text(3), let libvipsVersion = text(4),
      let configHash = text(5), let catalog = text(6)
    else { return nil }
    guard next(), kind == UInt8(ascii: "G"), let groups = texts(from: 1) else { return nil }
    var sets: [ManifestImageSet] = []
    var failed: [ManifestFailure] = []
    var recipes: [String: [String: String]] = [:]
    var settings: [String: String] = [:]
    while next() {
      guard kind == UInt8(ascii: "E") else {
        guard readSetLine(into: &sets) || readBuildLine(&failed, &recipes, &settings) else {
          return nil
        }
        continue
      }
      guard fields == 2, lines.integer(1) == sets.count, !next() else { return nil }
      var manifest = Manifest(
        toolVersion: toolVersion, libvipsVersion: libvipsVersion, configHash: configHash,
        catalog: catalog, groups: [], imageSets: [])
      manifest.schema = schema
      manifest.tool = tool
      manifest.groups = groups
      manifest.imageSets = sets
      manifest.failed = failed.isEmpty ? nil : failed
      manifest.recipes = recipes.isEmpty ? nil : recipes
      manifest.settings = settings.isEmpty ? nil : settings
      return manifest
    }
    return nil  // no end line: cut short
  }

  /// An imageset's line (`I`, or `S`, `O`, `P`, `H`, `D`, `B`, `W`, `K` of the last one) into
  /// `sets`;
  /// false for another kind or a damaged line.
  private mutating func readSetLine(into sets: inout [ManifestImageSet]) -> Bool {
    if kind == UInt8(ascii: "I") {
      guard fields >= 6, let asset = text(1), let recipe = text(2), let recipeHash = text(3),
        let folder = text(4), let contentsHash = text(5), let group = texts(from: 6)
      else { return false }
      sets.append(
        ManifestImageSet(
          asset: asset, group: group, recipe: recipe, recipeHash: recipeHash, folder: folder,
          contentsHash: contentsHash, sources: [], outputs: [], warnings: [], skipped: []))
      derivedDestination = nil
      return true
    }
    guard !sets.isEmpty else { return false }
    let last = sets.count - 1
    switch kind {
    case UInt8(ascii: "S"):
      guard fields == 3, let path = text(1), let hash = text(2) else { return false }
      sets[last].sources.append(ManifestSource(path: path, hash: hash))
    case UInt8(ascii: "O"):
      guard let output = output() else { return false }
      sets[last].outputs.append(output)
    case UInt8(ascii: "P"):
      guard sets[last].focus == nil, fields == 3, let x = text(1).flatMap(Double.init),
        let y = text(2).flatMap(Double.init)
      else { return false }
      sets[last].focus = FocusPoint(x: x, y: y)
    case UInt8(ascii: "H"):
      guard sets[last].thumbHash == nil, fields == 2, let thumbHash = text(1) else { return false }
      sets[last].thumbHash = thumbHash
    case UInt8(ascii: "D"):
      guard fields == 4, let destination = text(1), let json = optional(2),
        let jsonHash = optional(3)
      else { return false }
      let record = ManifestDerived(files: [], json: json, jsonHash: jsonHash)
      switch destination {
      case "web" where sets[last].web == nil: sets[last].web = record
      case "android" where sets[last].android == nil: sets[last].android = record
      default: return false
      }
      derivedDestination = destination
    case UInt8(ascii: "B"):
      guard let file = derivedFile() else { return false }
      switch derivedDestination {
      case "web": sets[last].web?.files.append(file)
      case "android": sets[last].android?.files.append(file)
      default: return false
      }
    case UInt8(ascii: "W"):
      guard fields == 2, let warning = text(1) else { return false }
      sets[last].warnings.append(warning)
    case UInt8(ascii: "K"):
      guard fields == 2, let skipped = text(1) else { return false }
      sets[last].skipped.append(skipped)
    default:
      return false
    }
    return true
  }

  /// A line about the whole build (`X` a failed master, `R` a recipe's settings, `C` a key
  /// setting); false for another kind or a damaged line.
  private func readBuildLine(
    _ failed: inout [ManifestFailure], _ recipes: inout [String: [String: String]],
    _ settings: inout [String: String]
  ) -> Bool {
    switch kind {
    case UInt8(ascii: "X"):
      guard fields == 3, let path = text(1), let reason = text(2) else { return false }
      failed.append(ManifestFailure(path: path, reason: reason))
    case UInt8(ascii: "R"):
      guard fields >= 2, fields % 2 == 0, let name = text(1), recipes[name] == nil,
        let pairs = texts(from: 2)
      else { return false }
      recipes[name] = Dictionary(
        stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) },
        uniquingKeysWith: { a, _ in a })
    case UInt8(ascii: "C"):
      guard fields == 3, let key = text(1), let value = text(2), settings[key] == nil else {
        return false
      }
      settings[key] = value
    default:
      return false
    }
    return true
  }

  /// A `B` line: one file of the destination of the last `D` line.
  private func derivedFile() -> ManifestDerivedFile? {
    guard fields == 7, let path = text(1), let width = lines.integer(2, signed: true),
      let height = lines.integer(3, signed: true), let byteCount = lines.integer(4, signed: true),
      let hash = text(5), let appearance = optional(6)
    else { return nil }
    return ManifestDerivedFile(
      path: path, appearance: appearance, width: width, height: height, bytes: byteCount,
      hash: hash)
  }

  /// Field `index` written as `+TEXT` (TEXT) or `-` (nil); nil for anything else, as the
  /// outer optional.
  private func optional(_ index: Int) -> String?? {
    guard let field = text(index) else { return nil }
    if field == "-" { return .some(nil) }
    guard field.hasPrefix("+") else { return nil }
    return .some(String(field.dropFirst()))
  }

  private func output() -> ManifestOutput? {
    guard fields == 10, let path = text(1), let scale = lines.integer(2, signed: true),
      let width = lines.integer(3, signed: true), let height = lines.integer(4, signed: true),
      let byteCount = lines.integer(5, signed: true), let hash = text(6),
      let appearance = text(7), let crop = text(8), let gamut = text(9)
    else { return nil }
    var output = ManifestOutput(
      path: path, scale: scale, appearance: nil, width: width, height: height,
      bytes: byteCount, hash: hash, crop: nil)
    if appearance.hasPrefix("+") {
      output.appearance = String(appearance.dropFirst())
    } else if appearance != "-" {
      return nil
    }
    if gamut.hasPrefix("+") {
      output.displayGamut = String(gamut.dropFirst())
    } else if gamut != "-" {
      return nil
    }
    if crop != "-" {
      let numbers = crop.split(separator: ",", omittingEmptySubsequences: false).compactMap {
        Int($0)
      }
      guard numbers.count == 4 else { return nil }
      output.crop = PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
    return output
  }

  /// Moves to the next line; false at the end, or at a last line without its line feed.
  private mutating func next() -> Bool {
    lines.next() && lines.isTerminated
  }

  /// The number of fields of the current line (its kind included).
  private var fields: Int { lines.fields.count }

  /// The current line's kind: its first field, one ASCII letter.
  private var kind: UInt8? {
    lines.fields[0].count == 1 ? lines.field(0).first : nil
  }

  /// Field `index` as text, unescaped; nil for invalid UTF-8 or escapes.
  private func text(_ index: Int) -> String? {
    let raw = lines.field(index)
    guard raw.contains(.backslash) else { return lines.text(index) }
    var text: [UInt8] = []
    text.reserveCapacity(raw.count)
    var escaped = false
    for byte in raw {
      if escaped {
        switch byte {
        case .backslash: text.append(.backslash)
        case UInt8(ascii: "t"): text.append(.tab)
        case UInt8(ascii: "n"): text.append(.newline)
        default: return nil
        }
        escaped = false
      } else if byte == .backslash {
        escaped = true
      } else {
        text.append(byte)
      }
    }
    return escaped ? nil : text.withUnsafeBufferPointer(TabSeparatedLines.text)
  }

  /// The fields from `first` on, as text.
  private func texts(from first: Int) -> [String]? {
    var result: [String] = []
    for index in first..<max(first, fields) {
      guard let text = text(index) else { return nil }
      result.append(text)
    }
    return result
  }
}
