internal import CVips

/// The number format of one band of a pixel.
package enum BandFormat: String, Sendable, CaseIterable {
  case uchar, char, ushort, short, uint, int, float, complex, double, dpcomplex, notset

  init(_ raw: CVips.VipsBandFormat) {
    switch raw {
    case VIPS_FORMAT_UCHAR: self = .uchar
    case VIPS_FORMAT_CHAR: self = .char
    case VIPS_FORMAT_USHORT: self = .ushort
    case VIPS_FORMAT_SHORT: self = .short
    case VIPS_FORMAT_UINT: self = .uint
    case VIPS_FORMAT_INT: self = .int
    case VIPS_FORMAT_FLOAT: self = .float
    case VIPS_FORMAT_COMPLEX: self = .complex
    case VIPS_FORMAT_DOUBLE: self = .double
    case VIPS_FORMAT_DPCOMPLEX: self = .dpcomplex
    default: self = .notset
    }
  }

  /// Bits per band value.
  package var bits: Int {
    switch self {
    case .uchar, .char: 8
    case .ushort, .short: 16
    case .uint, .int, .float: 32
    case .complex, .double: 64
    case .dpcomplex: 128
    case .notset: 0
    }
  }
}
