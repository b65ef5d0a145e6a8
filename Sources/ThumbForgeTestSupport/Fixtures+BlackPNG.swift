package import Foundation

/// Very large but tiny PNG files, for checks of pixel limits that must not decode them.
extension Fixtures {
  /// A valid PNG of `width`×`height` 1-bit grey pixels, all black, made without libvips so
  /// that even a 30000×30000 image is quick to make: one fixed-Huffman deflate block of
  /// runs of zero bytes.
  package static func blackPNG(width: Int, height: Int) -> Data {
    var header: [UInt8] = []
    header += PNGEncoder.bigEndian(UInt32(width))
    header += PNGEncoder.bigEndian(UInt32(height))
    header += [1, 0, 0, 0, 0]  // 1-bit grey, deflate, no filter, no interlace

    let rowBytes = 1 + (width + 7) / 8  // filter byte + packed pixels; all zero
    let total = rowBytes * height
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE = fixed Huffman
    let literalZero = BitWriter.reversed(0x30, length: 8)
    // Length code 285 (258 bytes, 8 bits) then distance code 0 (distance 1, 5 bits).
    let run258 = BitWriter.reversed(0xC5, length: 8) | BitWriter.reversed(0, length: 5) << 8
    bits.write(literalZero, count: 8)
    var remaining = total - 1
    while remaining >= 258 {
      bits.write(run258, count: 13)
      remaining -= 258
    }
    for _ in 0..<remaining { bits.write(literalZero, count: 8) }
    bits.write(0, count: 7)  // end of block
    var zlib: [UInt8] = [0x78, 0x01]
    zlib += bits.flushed
    // Adler-32 of `total` zero bytes: a = 1, b = total mod 65521.
    zlib += PNGEncoder.bigEndian(UInt32(total % 65521) << 16 | 1)

    var png: [UInt8] = PNGEncoder.signature
    png += PNGEncoder.chunk("IHDR", header)
    png += PNGEncoder.chunk("IDAT", zlib)
    png += PNGEncoder.chunk("IEND", [])
    return Data(png)
  }

  /// `blackPNG(width: 30000, height: 30000)` (900 megapixels in about 700 KB), made once.
  package static let hugePNG = blackPNG(width: 30000, height: 30000)
}

/// Packs bits least significant first, as deflate stores them.
private struct BitWriter {
  var bytes: [UInt8] = []
  private var accumulator: UInt64 = 0
  private var used: UInt64 = 0

  /// Writes the low `count` bits of `value`, least significant first.
  mutating func write(_ value: UInt64, count: UInt64) {
    accumulator |= value << used
    used += count
    while used >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: accumulator))
      accumulator >>= 8
      used -= 8
    }
  }

  /// A Huffman code with its bits reversed, so that `write` sends its top bit first.
  static func reversed(_ code: UInt64, length: UInt64) -> UInt64 {
    var result: UInt64 = 0
    for index in 0..<length where code & (1 << index) != 0 { result |= 1 << (length - 1 - index) }
    return result
  }

  /// The bytes written, the last partial byte padded with zero bits.
  var flushed: [UInt8] { used > 0 ? bytes + [UInt8(truncatingIfNeeded: accumulator)] : bytes }
}
