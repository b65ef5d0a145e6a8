internal import CVips

/// How libvips interprets an image's bands.
package enum Interpretation: String, Sendable, CaseIterable {
  case multiband, bw, histogram, xyz, lab, cmyk, labq, rgb, cmc, lch, labs, srgb, yxy, fourier
  case rgb16, grey16, matrix, scrgb, hsv, other

  init(_ raw: CVips.VipsInterpretation) {
    switch raw {
    case VIPS_INTERPRETATION_MULTIBAND: self = .multiband
    case VIPS_INTERPRETATION_B_W: self = .bw
    case VIPS_INTERPRETATION_HISTOGRAM: self = .histogram
    case VIPS_INTERPRETATION_XYZ: self = .xyz
    case VIPS_INTERPRETATION_LAB: self = .lab
    case VIPS_INTERPRETATION_CMYK: self = .cmyk
    case VIPS_INTERPRETATION_LABQ: self = .labq
    case VIPS_INTERPRETATION_RGB: self = .rgb
    case VIPS_INTERPRETATION_CMC: self = .cmc
    case VIPS_INTERPRETATION_LCH: self = .lch
    case VIPS_INTERPRETATION_LABS: self = .labs
    case VIPS_INTERPRETATION_sRGB: self = .srgb
    case VIPS_INTERPRETATION_YXY: self = .yxy
    case VIPS_INTERPRETATION_FOURIER: self = .fourier
    case VIPS_INTERPRETATION_RGB16: self = .rgb16
    case VIPS_INTERPRETATION_GREY16: self = .grey16
    case VIPS_INTERPRETATION_MATRIX: self = .matrix
    case VIPS_INTERPRETATION_scRGB: self = .scrgb
    case VIPS_INTERPRETATION_HSV: self = .hsv
    default: self = .other
    }
  }
}
