/// A minimal baseline TIFF writer: one uncompressed strip, chunky samples, little-endian.
enum TIFFWriter {
  static func file(
    width: Int, height: Int, bands: Int, bits: Int, photometric: Int, alpha: Bool,
    icc: [UInt8]?, pixels: [UInt8]
  ) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
    let bitsArray = (0..<bands).flatMap { _ in u16(bits) }
    var entries: [(tag: Int, type: Int, count: Int, data: [UInt8])] = [
      (256, 4, 1, u32(width)), (257, 4, 1, u32(height)), (258, 3, bands, bitsArray),
      (259, 3, 1, u16(1)), (262, 3, 1, u16(photometric)), (273, 4, 1, u32(0)),
      (277, 3, 1, u16(bands)), (278, 4, 1, u32(height)), (279, 4, 1, u32(pixels.count)),
      (284, 3, 1, u16(1)),
    ]
    if photometric == 5 { entries.append((332, 3, 1, u16(1))) }  // InkSet CMYK
    if alpha { entries.append((338, 3, 1, u16(2))) }  // unassociated alpha
    if let icc { entries.append((34675, 7, icc.count, icc)) }
    let ifdSize = 2 + 12 * entries.count + 4
    var extra: [UInt8] = []
    let extraStart = 8 + ifdSize
    var offsets: [Int: Int] = [:]
    for (index, entry) in entries.enumerated() where entry.data.count > 4 {
      offsets[index] = extraStart + extra.count
      extra += entry.data
      if extra.count % 2 == 1 { extra.append(0) }
    }
    let dataOffset = extraStart + extra.count
    var ifd = u16(entries.count)
    for (index, entry) in entries.enumerated() {
      ifd += u16(entry.tag) + u16(entry.type) + u32(entry.count)
      if entry.tag == 273 {
        ifd += u32(dataOffset)
      } else if let offset = offsets[index] {
        ifd += u32(offset)
      } else {
        ifd += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
      }
    }
    ifd += u32(0)
    return Array("II".utf8) + u16(42) + u32(8) + ifd + extra + pixels
  }
}
