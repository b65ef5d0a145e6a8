extension VipsImage {
  /// Renders text (Pango markup allowed) as a one-band 8-bit mask, for labels.
  package static func text(_ text: String, width: Int? = nil, dpi: Int = 72) throws(VipsError)
    -> VipsImage
  {
    var arguments: VipsArguments = ["text": .string(text), "dpi": .int(dpi)]
    if let width { arguments.append("width", .int(width)) }
    return try VipsOperation.image("text", arguments)
  }

  /// Lays images out in a grid, `across` per row, `shim` pixels apart, on `background`.
  package static func grid(
    _ images: [VipsImage], across: Int, shim: Int = 0, background: [Double] = [0]
  ) throws(VipsError) -> VipsImage {
    try VipsOperation.image(
      "arrayjoin",
      [
        "in": .images(images), "across": .int(across), "shim": .int(shim),
        "background": .doubles(background),
      ])
  }
}
