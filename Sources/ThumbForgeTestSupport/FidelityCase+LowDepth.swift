/// Masters below 8 bits per sample, written sample by sample (libvips 8.14's `pngsave`
/// writes zeros for most values at `bitdepth` 2 and 4, so its files cannot be the masters).
extension FidelityCase {
  /// The grey picture quantised to `bits`, packed most significant bit first, each row
  /// padded to a whole byte (as PNG and TIFF store it).
  func packedGreyRows(bits: Int, filterBytes: Bool = false) -> [UInt8] {
    let maximum = (1 << bits) - 1
    return Self.packed(width: width, height: height, bits: bits, filterBytes: filterBytes) {
      x, y in sample(x: x, y: y, band: 0, bands: 1, maximum: maximum)
    }
  }

  /// Rows of `bits`-wide values, most significant bit first, each row padded to a byte and,
  /// for PNG, preceded by filter type 0.
  static func packed(
    width: Int, height: Int, bits: Int, filterBytes: Bool, value: (Int, Int) -> Int
  ) -> [UInt8] {
    var data: [UInt8] = []
    for y in 0..<height {
      if filterBytes { data.append(0) }
      var byte = 0
      var used = 0
      for x in 0..<width {
        byte = byte << bits | value(x, y)
        used += bits
        if used == 8 {
          data.append(UInt8(byte))
          byte = 0
          used = 0
        }
      }
      if used > 0 { data.append(UInt8(byte << (8 - used))) }
    }
    return data
  }

  /// A grey PNG at 1, 2 or 4 bits, with the grey profile in an `iCCP` chunk when it has one.
  func lowGreyPNG(bits: Int) throws -> [UInt8] {
    var chunks: [(String, [UInt8])] = []
    if let icc = try profileBytes() {
      chunks.append(("iCCP", Array("ICC profile".utf8) + [0, 0] + PNGEncoder.zlibStored(icc)))
    }
    return PNGEncoder.file(
      width: width, height: height, bitDepth: bits, colourType: 0, chunks: chunks,
      rows: packedGreyRows(bits: bits, filterBytes: true))
  }

  /// A palette PNG at 1, 2 or 4 bits: each pixel takes the nearest of a fixed set of
  /// distinct colours; with alpha, the palette's first half is those colours translucent
  /// (`tRNS`) and pixels under half opacity take them.
  func lowPalettePNG(bits: Int) -> [UInt8] {
    let entries = 1 << bits
    let colours = Array(Self.paletteColours.prefix(hasAlpha ? entries / 2 : entries))
    let opaqueStart = hasAlpha ? colours.count : 0
    let rows = Self.packed(width: width, height: height, bits: bits, filterBytes: true) { x, y in
      let rgb = (0..<3).map { sample(x: x, y: y, band: $0, bands: 3, maximum: 255) }
      let nearest = colours.indices.min { a, b in
        Self.distance(colours[a], rgb) < Self.distance(colours[b], rgb)
      }!
      let opaque = !hasAlpha || sample(x: x, y: y, band: 3, bands: 4, maximum: 255) >= 128
      return nearest + (opaque ? opaqueStart : 0)
    }
    let palette = (colours + (hasAlpha ? colours : [])).flatMap { $0.map { UInt8($0) } }
    var chunks = [("PLTE", palette)]
    if hasAlpha {
      chunks.append(("tRNS", [UInt8](repeating: 64, count: colours.count)))
    }
    return PNGEncoder.file(
      width: width, height: height, bitDepth: bits, colourType: 3, chunks: chunks, rows: rows)
  }

  /// Sixteen well-separated colours, in the order a smaller palette takes them.
  static let paletteColours: [[Int]] = [
    [20, 24, 40], [240, 200, 60], [40, 120, 220], [230, 60, 40], [30, 160, 90],
    [245, 245, 240], [140, 60, 170], [120, 200, 230], [250, 140, 30], [90, 90, 100],
    [200, 230, 120], [170, 40, 90], [60, 200, 180], [250, 180, 200], [100, 60, 30],
    [180, 180, 190],
  ]

  static func distance(_ a: [Int], _ b: [Int]) -> Int {
    zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
  }
}
