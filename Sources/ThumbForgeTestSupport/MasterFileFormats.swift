/// Image files written byte by byte for the asset folder generator, where libvips has no
/// saver this package reaches (GIF, TIFF, PDF, palette PNG) or where the generator wants
/// exact control of the metadata (EXIF orientation and GPS in JPEG and PNG files).
enum MasterFileFormats {
  // MARK: - EXIF

  /// A TIFF-structured EXIF block (little-endian, without the `Exif\0\0` prefix): IFD0 with
  /// the orientation, a camera make and, with `gps`, a GPS IFD holding a latitude and
  /// longitude (46° 1' 12" N, 7° 44' 56" E).
  static func exif(orientation: Int, gps: Bool) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
    struct Entry {
      var tag: Int
      var type: Int
      var count: Int
      var data: [UInt8]
    }
    /// An IFD at `offset`: entries (values over 4 bytes placed after it), next-IFD 0.
    func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
      var table = u16(entries.count)
      var extra: [UInt8] = []
      let extraStart = offset + 2 + 12 * entries.count + 4
      for entry in entries {
        table += u16(entry.tag) + u16(entry.type) + u32(entry.count)
        if entry.data.count <= 4 {
          table += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
        } else {
          table += u32(extraStart + extra.count)
          extra += entry.data
          if extra.count % 2 == 1 { extra.append(0) }
        }
      }
      return table + u32(0) + extra
    }
    let make = Array("ThumbForge\0".utf8)
    var ifd0 = [
      Entry(tag: 0x010F, type: 2, count: make.count, data: make),
      Entry(tag: 0x0112, type: 3, count: 1, data: u16(orientation)),
    ]
    let gpsPointerIndex = ifd0.count
    if gps { ifd0.append(Entry(tag: 0x8825, type: 4, count: 1, data: u32(0))) }
    var first = ifd(ifd0, at: 8)
    if gps {
      // Point GPSInfo at the GPS IFD, which follows IFD0 and its values.
      let gpsOffset = 8 + first.count
      ifd0[gpsPointerIndex].data = u32(gpsOffset)
      first = ifd(ifd0, at: 8)
      func rationals(_ values: [(Int, Int)]) -> [UInt8] {
        values.flatMap { u32($0.0) + u32($0.1) }
      }
      let gpsEntries = [
        Entry(tag: 0x0000, type: 1, count: 4, data: [2, 3, 0, 0]),
        Entry(tag: 0x0001, type: 2, count: 2, data: Array("N\0".utf8)),
        Entry(tag: 0x0002, type: 5, count: 3, data: rationals([(46, 1), (1, 1), (12, 1)])),
        Entry(tag: 0x0003, type: 2, count: 2, data: Array("E\0".utf8)),
        Entry(tag: 0x0004, type: 5, count: 3, data: rationals([(7, 1), (44, 1), (56, 1)])),
      ]
      first += ifd(gpsEntries, at: gpsOffset)
    }
    return Array("II".utf8) + u16(42) + u32(8) + first
  }

  // MARK: - JPEG and PNG metadata

  /// `jpeg` without its APP1 (EXIF, XMP) segments, with `exif` (when given) as the first
  /// segment after SOI. Returns the file unchanged when it is not a well-formed JPEG.
  static func jpeg(_ jpeg: [UInt8], replacingEXIFWith exif: [UInt8]?) -> [UInt8] {
    guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
    var out: [UInt8] = [0xFF, 0xD8]
    if let exif {
      let payload = Array("Exif\0\0".utf8) + exif
      let length = payload.count + 2
      out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
      let marker = jpeg[index + 1]
      // Start of scan: the rest is entropy-coded data.
      if marker == 0xDA { break }
      let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
      let end = index + 2 + length
      guard end <= jpeg.count else { return jpeg }
      if marker != 0xE1 { out += jpeg[index..<end] }
      index = end
    }
    return out + jpeg[index...]
  }

  /// `png` without its `eXIf`, `tEXt`, `zTXt`, `iTXt` chunks, with an `eXIf` chunk holding
  /// `exif` and a `tEXt` comment (when given) before the first IDAT.
  static func png(_ png: [UInt8], replacingEXIFWith exif: [UInt8]?, comment: String? = nil)
    -> [UInt8]
  {
    guard png.count > 8, Array(png[0..<8]) == PNGEncoder.signature else { return png }
    var out = PNGEncoder.signature
    var index = 8
    var inserted = false
    while index + 12 <= png.count {
      let length =
        Int(png[index]) << 24 | Int(png[index + 1]) << 16 | Int(png[index + 2]) << 8
        | Int(png[index + 3])
      let type = String(decoding: png[(index + 4)..<(index + 8)], as: UTF8.self)
      let end = index + 12 + length
      guard end <= png.count else { return png }
      if type == "IDAT" && !inserted {
        inserted = true
        if let exif { out += PNGEncoder.chunk("eXIf", exif) }
        if let comment { out += PNGEncoder.chunk("tEXt", Array("Comment\0\(comment)".utf8)) }
      }
      if !["eXIf", "tEXt", "zTXt", "iTXt"].contains(type) { out += png[index..<end] }
      index = end
    }
    return out
  }

  // MARK: - Palette PNG

  /// An 8-bit palette PNG of RGB(A) `pixels` (`bands` 3 or 4), quantised to a 3-3-2 palette;
  /// with alpha, a `tRNS` chunk makes the palette's dark half translucent, so that the
  /// file's alpha comes from the palette as designers' tools write it.
  static func palettePNG(width: Int, height: Int, bands: Int, pixels: [UInt8]) -> [UInt8] {
    var palette: [UInt8] = []
    for index in 0..<256 {
      palette += [
        UInt8((index >> 5) * 255 / 7), UInt8(((index >> 2) & 7) * 255 / 7),
        UInt8((index & 3) * 255 / 3),
      ]
    }
    var raw: [UInt8] = []
    raw.reserveCapacity(height * (width + 1))
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width {
        let base = (y * width + x) * bands
        var index =
          Int(pixels[base] >> 5) << 5 | Int(pixels[base + 1] >> 5) << 2
          | Int(pixels[base + 2] >> 6)
        // Transparent pixels take an index of the translucent half.
        if bands == 4 && pixels[base + 3] < 128 {
          index &= 0x7F
        } else if bands == 4 {
          index |= 0x80
        }
        raw.append(UInt8(index))
      }
    }
    var header: [UInt8] =
      PNGEncoder.bigEndian(UInt32(width))
      + PNGEncoder.bigEndian(
        UInt32(height))
    header += [8, 3, 0, 0, 0]
    var png = PNGEncoder.signature + PNGEncoder.chunk("IHDR", header)
    png += PNGEncoder.chunk("PLTE", palette)
    if bands == 4 {
      png += PNGEncoder.chunk("tRNS", (0..<256).map { $0 < 128 ? UInt8($0) : 255 })
    }
    png += PNGEncoder.chunk("IDAT", PNGEncoder.zlibStored(raw))
    return png + PNGEncoder.chunk("IEND", [])
  }

  // MARK: - GIF

  /// A GIF89a of RGB(A) `pixels` with a 3-3-2 colour table; with alpha, pixels under half
  /// opacity take the transparent index 0. LZW without compression: a clear code every
  /// 100 literals keeps every code 9 bits wide, which every decoder reads.
  /// With `frames` over 1, the picture is repeated as that many frames of an animation.
  static func gif(width: Int, height: Int, bands: Int, pixels: [UInt8], frames: Int = 1)
    -> [UInt8]
  {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    var out = Array("GIF89a".utf8) + u16(width) + u16(height) + [0xF7, 0, 0]
    for index in 0..<256 {
      out += [
        UInt8((index >> 5) * 255 / 7), UInt8(((index >> 2) & 7) * 255 / 7),
        UInt8((index & 3) * 255 / 3),
      ]
    }
    // Graphic control extension: a tenth of a second a frame, transparent colour index 0.
    let control: [UInt8] =
      frames > 1 || bands == 4
      ? [0x21, 0xF9, 4, bands == 4 ? 0x01 : 0, frames > 1 ? 10 : 0, 0, 0, 0] : []
    let descriptor = [0x2C] + u16(0) + u16(0) + u16(width) + u16(height) + [0, 8]  // LZW size 8
    var codes: [Int] = [256]
    var sinceClear = 0
    for pixel in 0..<(width * height) {
      let base = pixel * bands
      var index =
        Int(pixels[base] >> 5) << 5 | Int(pixels[base + 1] >> 5) << 2
        | Int(pixels[base + 2] >> 6)
      if bands == 4 {
        index = pixels[base + 3] < 128 ? 0 : max(index, 1)
      }
      codes.append(index)
      sinceClear += 1
      if sinceClear == 100 {
        codes.append(256)
        sinceClear = 0
      }
    }
    codes.append(257)
    var data: [UInt8] = []
    var accumulator = 0
    var used = 0
    for code in codes {
      accumulator |= code << used
      used += 9
      while used >= 8 {
        data.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        used -= 8
      }
    }
    if used > 0 { data.append(UInt8(accumulator & 0xFF)) }
    var blocks: [UInt8] = []
    var offset = 0
    while offset < data.count {
      let count = min(255, data.count - offset)
      blocks.append(UInt8(count))
      blocks += data[offset..<(offset + count)]
      offset += count
    }
    for _ in 0..<max(1, frames) { out += control + descriptor + blocks + [0] }
    return out + [0x3B]
  }

  // MARK: - TIFF

  /// An uncompressed, single-strip, little-endian TIFF of 8-bit `pixels` (1, 3 or 4 bands;
  /// the fourth is unassociated alpha).
  static func tiff(width: Int, height: Int, bands: Int, pixels: [UInt8]) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
    let entryCount = bands == 4 ? 11 : 10
    let ifdSize = 2 + 12 * entryCount + 4
    let bitsOffset = 8 + ifdSize
    let dataOffset = bitsOffset + 2 * bands
    func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
      u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }
    var ifd = u16(entryCount)
    ifd += entry(256, 4, 1, u32(width))
    ifd += entry(257, 4, 1, u32(height))
    ifd += entry(258, 3, bands, bands <= 2 ? u16(8) : u32(bitsOffset))
    ifd += entry(259, 3, 1, u16(1))  // no compression
    ifd += entry(262, 3, 1, u16(bands >= 3 ? 2 : 1))  // RGB or black is zero
    ifd += entry(273, 4, 1, u32(dataOffset))
    ifd += entry(277, 3, 1, u16(bands))
    ifd += entry(278, 4, 1, u32(height))
    ifd += entry(279, 4, 1, u32(pixels.count))
    ifd += entry(284, 3, 1, u16(1))  // chunky
    if bands == 4 { ifd += entry(338, 3, 1, u16(2)) }  // unassociated alpha
    ifd += u32(0)
    let bits = (0..<bands).flatMap { _ in u16(8) }
    return Array("II".utf8) + u16(42) + u32(8) + ifd + bits + pixels
  }

  // MARK: - PDF

  /// A one-page PDF of `width`×`height` points: two filled rectangles.
  static func pdf(width: Double, height: Double, seed: Int) -> [UInt8] {
    func number(_ value: Double) -> String {
      value == value.rounded() ? String(Int(value)) : String(format3(value))
    }
    let red = Double((seed * 37) % 256) / 255
    let content =
      "\(format3(red)) 0.3 0.6 rg 0 0 \(number(width)) \(number(height)) re f "
      + "1 0.8 0 rg \(number(width / 4)) \(number(height / 4)) \(number(width / 2)) \(number(height / 2)) re f\n"
    let objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(number(width)) \(number(height))] /Contents 4 0 R >>",
      "<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream",
    ]
    return pdfDocument(objects)
  }

  /// A PDF file of `objects` (numbered from 1, the first the catalog), with its cross-reference
  /// table.
  static func pdfDocument(_ objects: [String]) -> [UInt8] {
    var text = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (index, object) in objects.enumerated() {
      offsets.append(text.utf8.count)
      text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = text.utf8.count
    text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets {
      let digits = String(offset)
      text += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
    }
    text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return Array(text.utf8)
  }

  /// `value` with at most three decimals, without a locale.
  static func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let sign = thousandths < 0 ? "-" : ""
    let magnitude = abs(thousandths)
    let fraction = magnitude % 1000
    if fraction == 0 { return "\(sign)\(magnitude / 1000)" }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(magnitude / 1000).\(digits)"
  }
}

extension Fixtures {
  /// An animated GIF of `frames` frames of a colour pattern.
  package static func animatedGIF(width: Int, height: Int, frames: Int) -> [UInt8] {
    let pixels: [UInt8] = (0..<(width * height)).flatMap { index -> [UInt8] in
      [UInt8(index % 256), UInt8((index / width) % 256), 128]
    }
    return MasterFileFormats.gif(
      width: width, height: height, bands: 3, pixels: pixels, frames: frames)
  }
}

extension Fixtures {
  /// An animated WebP of `frames` copies of `still`, a simple-format WebP (one `VP8 ` or
  /// `VP8L` chunk, as libvips writes without metadata): the still's chunk wrapped in `ANMF`
  /// frames behind `VP8X` and `ANIM` (libvips 8.14 here writes no animation itself).
  package static func animatedWebP(still: [UInt8], width: Int, height: Int, frames: Int)
    -> [UInt8]
  {
    func u24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    func chunk(_ name: String, _ body: [UInt8]) -> [UInt8] {
      Array(name.utf8) + u32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }
    precondition(still.count > 20 && Array(still[8..<12]) == Array("WEBP".utf8))
    let frame = Array(still[12...])  // the still's one image chunk, header included
    var body = Array("WEBP".utf8)
    body += chunk("VP8X", [0x02 | 0x10, 0, 0, 0] + u24(width - 1) + u24(height - 1))
    body += chunk("ANIM", [255, 255, 255, 255, 0, 0])
    for _ in 0..<frames {
      body += chunk(
        "ANMF", u24(0) + u24(0) + u24(width - 1) + u24(height - 1) + u24(100) + [0] + frame)
    }
    return Array("RIFF".utf8) + u32(body.count) + body
  }
}
