/// Writes uncompressed PNG files in memory, so fixtures can be described sample by sample
/// and decoded by libvips' own, trusted `pngload_buffer` (no encoder or external loader in
/// the loop, and the same bytes on every platform).
///
/// The zlib stream uses stored (uncompressed) deflate blocks: larger files, trivial code.
enum PNGEncoder {
  /// Encodes interleaved samples; 16-bit samples are written big-endian as PNG requires.
  /// - Parameters:
  ///   - bands: 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA).
  ///   - bitDepth: 8 or 16.
  ///   - samples: `width * height * bands` values, each clamped to the bit depth's range.
  static func encode(width: Int, height: Int, bands: Int, bitDepth: Int, samples: [Int])
    -> [UInt8]
  {
    precondition((1...4).contains(bands), "PNG holds 1 to 4 bands")
    precondition(bitDepth == 8 || bitDepth == 16, "bit depth must be 8 or 16")
    precondition(samples.count == width * height * bands, "sample count does not match size")
    let colourType: UInt8 = [0, 4, 2, 6][bands - 1]
    let maxValue = bitDepth == 16 ? 65535 : 255

    // Each row starts with filter type 0 (none).
    var raw: [UInt8] = []
    let rowSamples = width * bands
    raw.reserveCapacity(height * (1 + rowSamples * bitDepth / 8))
    for row in 0..<height {
      raw.append(0)
      for sample in samples[(row * rowSamples)..<((row + 1) * rowSamples)] {
        let value = min(max(sample, 0), maxValue)
        if bitDepth == 16 { raw.append(UInt8(value >> 8)) }
        raw.append(UInt8(value & 0xFF))
      }
    }

    return file(width: width, height: height, bitDepth: bitDepth, colourType: colourType, rows: raw)
  }

  /// A whole file: the header, `chunks` (`PLTE`, `tRNS`, `iCCP` …), then `rows` (each with
  /// its filter byte) in one stored `IDAT`.
  static func file(
    width: Int, height: Int, bitDepth: Int, colourType: UInt8,
    chunks: [(String, [UInt8])] = [], rows: [UInt8]
  ) -> [UInt8] {
    let header =
      bigEndian(UInt32(width)) + bigEndian(UInt32(height))
      + [UInt8(bitDepth), colourType, 0, 0, 0]
    var png = signature + chunk("IHDR", header)
    for (type, data) in chunks { png += chunk(type, data) }
    png += chunk("IDAT", zlibStored(rows))
    return png + chunk("IEND", [])
  }

  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A chunk: length, type, data and the CRC of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
  }

  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65535, data.count - offset)
      let final: UInt8 = offset + count == data.count ? 1 : 0
      out.append(final)
      out += [UInt8(count & 0xFF), UInt8(count >> 8)]
      out += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[offset..<(offset + count)]
      offset += count
    } while offset < data.count
    return out + bigEndian(adler32(data))
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  private static let crcTable: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 {
      crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
    }
    return crc
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    crcTable.withUnsafeBufferPointer { table in
      bytes.withUnsafeBufferPointer { buffer in
        for byte in buffer {
          crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
      }
    }
    return crc ^ 0xFFFF_FFFF
  }

  private static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    bytes.withUnsafeBufferPointer { buffer in
      for byte in buffer {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
      }
    }
    return (b << 16) | a
  }
}
