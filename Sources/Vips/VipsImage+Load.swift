internal import CVips

extension VipsImage {
  /// Opens an image file. Pixels are decoded lazily, when first needed.
  /// - Throws: ``VipsError`` naming the file when it is missing or not a known image.
  package static func load(path: String, options: LoadOptions = LoadOptions()) throws(VipsError)
    -> VipsImage
  {
    try Vips.initialize()
    let loader: String
    if let common = CommonLoader.name(forFile: path) {
      loader = common
    } else {
      guard let found = FormatModules.retrying({ vips_foreign_find_load(path) }) else {
        // No loader wants it; said here too, since another thread may have taken the
        // buffer's line.
        var error = VipsError.fromBuffer(context: path, file: path)
        if error.message.isEmpty { error.message = "\"\(path)\" is not a known file format" }
        throw error
      }
      loader = String(cString: found)
    }
    var arguments: [(String, VipsValue)] = [("filename", .string(path))]
    arguments += loaderArguments(loader, options)
    do {
      return try VipsOperation.image(loader, VipsArguments(arguments))
    } catch {
      throw VipsError(context: path, message: error.message)
    }
  }

  /// Decodes an image held in memory; the bytes are copied, so the array may go away.
  package static func load(bytes: [UInt8], options: LoadOptions = LoadOptions())
    throws(VipsError) -> VipsImage
  {
    try Vips.initialize()
    guard !bytes.isEmpty else {
      throw VipsError(context: "buffer", message: "empty buffer")
    }
    let loader: String
    if let common = CommonLoader.name(forPrefix: bytes.prefix(8), buffer: true) {
      loader = common
    } else {
      let found = FormatModules.retrying {
        bytes.withUnsafeBytes { vips_foreign_find_load_buffer($0.baseAddress, $0.count) }
      }
      guard let found else { throw VipsError.fromBuffer(context: "buffer") }
      loader = String(cString: found)
    }
    var arguments: [(String, VipsValue)] = [("buffer", .bytes(bytes))]
    arguments += loaderArguments(loader, options)
    return try VipsOperation.image(loader, VipsArguments(arguments))
  }

  /// Renders SVG text (used for masks and borders).
  package static func svg(_ text: String, scale: Double = 1) throws(VipsError) -> VipsImage {
    try VipsOperation.image(
      "svgload_buffer", ["buffer": .bytes(Array(text.utf8)), "scale": .double(scale)])
  }

  /// libvips' own `thumbnail` of a file: shrink-on-load, auto-rotate and resize in one go.
  package static func thumbnail(
    path: String, width: Int, height: Int? = nil, size: SizeMode = .both,
    crop: Interesting = .none, autoRotate: Bool = true
  ) throws(VipsError) -> VipsImage {
    var arguments: [(String, VipsValue)] = [
      ("filename", .string(path)), ("width", .int(width)), ("size", .string(size.rawValue)),
      ("crop", .string(crop.rawValue)), ("no-rotate", .bool(!autoRotate)),
    ]
    if let height { arguments.append(("height", .int(height))) }
    do {
      return try VipsOperation.image("thumbnail", VipsArguments(arguments))
    } catch {
      // No loader for the file while the format modules were still pending: load them.
      if FormatModules.loadPending(),
        let image = try? VipsOperation.image("thumbnail", VipsArguments(arguments))
      {
        return image
      }
      throw VipsError(context: path, message: error.message)
    }
  }

  /// Makes a solid image of one colour (one value per band).
  package static func solid(width: Int, height: Int, color: [Double]) throws(VipsError)
    -> VipsImage
  {
    let black = try VipsOperation.image(
      "black", ["width": .int(width), "height": .int(height), "bands": .int(color.count)])
    let filled = try VipsOperation.image(
      "linear",
      [
        "in": .image(black), "a": .doubles(Array(repeating: 1, count: color.count)),
        "b": .doubles(color), "uchar": .bool(true),
      ])
    let space = color.count >= 3 ? "srgb" : "b-w"
    return try VipsOperation.image(
      "copy", ["in": .image(filled), "interpretation": .string(space)])
  }

  private static func loaderArguments(_ loader: String, _ options: LoadOptions) -> [(
    String, VipsValue
  )] {
    var candidates: [(String, VipsValue)] = [
      ("access", .string(options.access.rawValue)),
      ("fail-on", .string(options.failOn.rawValue)),
    ]
    if let page = options.page { candidates.append(("page", .int(page))) }
    if let shrink = options.shrink, shrink > 1 { candidates.append(("shrink", .int(shrink))) }
    if let scale = options.scale { candidates.append(("scale", .double(scale))) }
    if let dpi = options.dpi { candidates.append(("dpi", .double(dpi))) }
    if options.memory { candidates.append(("memory", .bool(true))) }
    return candidates.filter { VipsOperation.has(loader, argument: $0.0) }
  }
}
