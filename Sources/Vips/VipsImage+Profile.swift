internal import CVips
internal import Synchronization

extension VipsImage {
  /// Converts to 8-bit RGB in `profile` (alpha kept), honouring an embedded ICC profile as
  /// ``toSRGB8()`` does. A Display P3 result carries libvips' P3 profile, which
  /// ``SaveOptions/keepProfile`` writes into the file.
  package func toRGB8(_ profile: RGBProfile) throws(VipsError) -> VipsImage {
    if profile == .sRGB { return try toSRGB8() }
    // A tagged input is read through its profile; an untagged one (CMYK, 16-bit, grey …)
    // is made sRGB first, as every sRGB output is.
    return try (hasICCProfile ? self : try toSRGB8()).iccTransformed(to: profile.builtinName)
  }

  /// Converts to another ICC profile, honouring an embedded one (sRGB when there is none),
  /// at `depth` bits per band; the result carries the new profile.
  ///
  /// - Parameter profile: a libvips built-in profile (`srgb`, `p3`, `cmyk`) or the path of
  ///   an ICC file.
  package func iccTransformed(to profile: String, depth: Int = 8) throws(VipsError) -> VipsImage {
    try iccTransformed(to: profile, inputProfile: RGBProfile.sRGB.builtinName, depth: depth)
  }

  /// ``iccTransformed(to:depth:)`` with the profile assumed for an untagged image (`nil`:
  /// the embedded one or libvips' default for the interpretation).
  ///
  /// Alpha goes around the transform: libvips 8.14 casts the alpha of a 16-bit image to the
  /// output depth without scaling it, so a faint 16-bit alpha would come out opaque. It is
  /// brought to `depth` bits as libvips' own conversions do (the top byte of 16 bits; 8 bits
  /// times 257).
  func iccTransformed(to profile: String, inputProfile: String?, depth: Int = 8)
    throws(VipsError) -> VipsImage
  {
    func transform(_ image: VipsImage) throws(VipsError) -> VipsImage {
      var arguments: VipsArguments = [
        "in": .image(image), "output-profile": .string(profile), "embedded": .bool(true),
        "intent": .string("perceptual"), "depth": .int(depth),
      ]
      if let inputProfile { arguments.append("input-profile", .string(inputProfile)) }
      return try VipsOperation.image("icc_transform", arguments)
    }
    guard hasAlpha else { return try transform(self) }
    let colour = try transform(try extractBand(0, count: bands - 1))
    var alpha = try extractBand(bands - 1)
    let sixteen = format == .ushort || format == .short
    if sixteen && depth == 8 {
      alpha = try VipsOperation.image(
        "boolean_const", ["in": .image(alpha), "boolean": .string("rshift"), "c": .doubles([8])])
    } else if !sixteen && depth == 16 {
      alpha = try VipsOperation.image(
        "linear", ["in": .image(alpha), "a": .doubles([257]), "b": .doubles([0])])
    }
    return try colour.bandjoin([try alpha.cast(to: colour.format)])
  }

  /// How far the embedded RGB profile's gamut reaches beyond sRGB: the largest colour error
  /// (CIE ΔE 1976) among its pure primaries and secondaries, each made at full strength in
  /// the profile and clipped to sRGB (0 with no RGB profile; about 2.6 for sRGB profiles,
  /// from rounding, and for a damaged profile, which libvips reads as sRGB; 35 for Display
  /// P3, 50 for Adobe RGB, 77 for ProPhoto RGB). Reads the header only; transforms seven
  /// pixels.
  ///
  /// Building the transforms costs far more than reading a header, so results are
  /// remembered by profile: the
  /// masters of a folder share a handful of profiles (a camera's, a design tool's).
  package func gamutBeyondSRGB() -> Double {
    guard let profile = iccProfile, bands >= 3,
      [.srgb, .rgb, .rgb16, .scrgb].contains(interpretation)
    else { return 0 }
    if let known = Self.gamutByProfile.withLock({ $0[profile] }) { return known }
    let measured = Self.measureGamut(profile)
    Self.gamutByProfile.withLock { known in
      if known.count >= 64 { known.removeAll() }  // bounded: folders rarely hold many
      known[profile] = measured
    }
    return measured
  }

  private static let gamutByProfile = Mutex<[[UInt8]: Double]>([:])

  /// ``gamutBeyondSRGB()`` of `profile`, measured.
  private static func measureGamut(_ profile: [UInt8]) -> Double {
    let colours: [UInt8] = [
      255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255, 255, 255, 255,
    ]
    do {
      let swatch = try VipsImage.pixels(colours, width: colours.count / 3, height: 1, bands: 3)
        .settingBlob("icc-profile-data", profile)
      let lab = try VipsOperation.image(
        "icc_import",
        ["in": .image(swatch), "embedded": .bool(true), "intent": .string("relative")])
      let clipped = try VipsOperation.image(
        "icc_export",
        [
          "in": .image(lab), "output-profile": .string(RGBProfile.sRGB.builtinName),
          "depth": .int(16), "intent": .string("relative"),
        ])
      let back = try VipsOperation.image(
        "icc_import",
        [
          "in": .image(clipped), "input-profile": .string(RGBProfile.sRGB.builtinName),
          "intent": .string("relative"),
        ])
      let difference = try VipsOperation.image(
        "dE76", ["left": .image(lab), "right": .image(back)])
      return try VipsOperation.double("max", ["in": .image(difference)])
    } catch {
      return 0  // a profile lcms cannot use: the image is converted as if it had none
    }
  }

  /// The embedded ICC profile's bytes, if any.
  package var iccProfile: [UInt8]? {
    guard hasICCProfile else { return nil }
    var data: UnsafeRawPointer?
    var length = 0
    guard vips_image_get_blob(pointer, "icc-profile-data", &data, &length) == 0, let data else {
      vips_error_clear()
      return nil
    }
    return Array(UnsafeRawBufferPointer(start: data, count: length))
  }

  /// A copy of the image with a blob header field (such as `icc-profile-data`) set.
  package func settingBlob(_ name: String, _ bytes: [UInt8]) throws(VipsError) -> VipsImage {
    let copy = try VipsOperation.image("copy", ["in": .image(self)])
    bytes.withUnsafeBytes { vips_image_set_blob_copy(copy.pointer, name, $0.baseAddress, $0.count) }
    return copy
  }

  /// A copy of the image without metadata but its ICC profile (no EXIF, XMP, IPTC or
  /// comments), so that a saver told to keep metadata writes the profile alone.
  func keepingOnlyProfile() throws(VipsError) -> VipsImage {
    let copy = try VipsOperation.image("copy", ["in": .image(self)])
    guard let fields = vips_image_get_fields(copy.pointer) else { return copy }
    defer { g_strfreev(fields) }
    var index = 0
    while let name = fields[index] {
      // Header fields (width, xres …) are not removable and stay; so does the profile.
      if String(cString: name) != "icc-profile-data" { vips_image_remove(copy.pointer, name) }
      index += 1
    }
    return copy
  }

  /// An 8-bit image made from `bytes`, band-interleaved, row by row.
  package static func pixels(_ bytes: [UInt8], width: Int, height: Int, bands: Int)
    throws(VipsError) -> VipsImage
  {
    precondition(bytes.count == width * height * bands, "pixels: wrong byte count")
    try PixelCount.checkSides(width, height, "new_from_memory_copy")
    let made = bytes.withUnsafeBytes {
      vips_image_new_from_memory_copy(
        $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
    }
    guard let made else { throw VipsError.fromBuffer(context: "new_from_memory_copy") }
    let image = VipsImage(owning: made)
    return try VipsOperation.image(
      "copy", ["in": .image(image), "interpretation": .string(bands >= 3 ? "srgb" : "b-w")])
  }
}
