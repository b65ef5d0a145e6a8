extension VipsImage {
  /// Encodes the image into memory.
  /// - Throws: ``VipsError`` when the format is not built into this libvips, or encoding fails.
  public func encoded(as format: ImageFormat, options: SaveOptions = SaveOptions())
    throws(VipsError) -> [UInt8]
  {
    let name = format.saverName + "_buffer"
    guard Vips.canSave(format) else {
      throw VipsError(
        context: name, message: "\(format.rawValue) output is not supported by this libvips build")
    }
    var arguments = saverArguments(name, format, options)
    arguments.pairs.insert(("in", .image(self)), at: 0)
    return try VipsOperation.bytes(name, arguments)
  }

  /// Encodes the image to a file (not atomically: ThumbForge writes buffers itself).
  public func save(path: String, as format: ImageFormat, options: SaveOptions = SaveOptions())
    throws(VipsError)
  {
    let name = format.saverName
    var arguments = saverArguments(name, format, options)
    arguments.pairs.insert(("filename", .string(path)), at: 0)
    arguments.pairs.insert(("in", .image(self)), at: 0)
    do {
      try VipsOperation.run(name, arguments)
    } catch {
      throw VipsError(context: path, message: error.message)
    }
  }

  private func saverArguments(_ name: String, _ format: ImageFormat, _ options: SaveOptions)
    -> VipsArguments
  {
    var arguments: VipsArguments = [:]
    if options.stripMetadata {
      // libvips 8.15 replaced `strip` with `keep`; use whichever this build has.
      if VipsOperation.has(name, argument: "keep") {
        arguments.append("keep", .string("none"))
      } else {
        arguments.append("strip", .bool(true))
      }
    }
    switch format {
    case .png:
      arguments.append("compression", .int(options.compression))
      arguments.append("interlace", .bool(options.interlace))
    case .jpeg:
      arguments.append("Q", .int(options.quality))
      arguments.append("optimize-coding", .bool(options.optimizeCoding))
      arguments.append("interlace", .bool(options.interlace))
    case .webp:
      arguments.append("Q", .int(options.quality))
      arguments.append("lossless", .bool(options.lossless))
    case .heif:
      arguments.append("Q", .int(options.quality))
    }
    return arguments
  }
}
