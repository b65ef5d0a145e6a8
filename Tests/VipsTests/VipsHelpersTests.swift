import CVips
import CVipsHelpers
import Testing
import ThumbForgeTestSupport

@testable import Vips

/// The CVipsHelpers target against what libvips does itself; `addingAlpha` against
/// `bandjoin_const` and the WebP strip against libwebpmux's chunks are in
/// VipsImageColourTests and LibvipsWorkaroundTests.
@Suite("C helpers")
struct VipsHelpersTests {
  /// The names `vips_image_get_fields` lists for an image without metadata.
  static func fields(of image: UnsafeMutablePointer<CVips.VipsImage>) -> [String] {
    guard let names = vips_image_get_fields(image) else { return [] }
    defer { g_strfreev(names) }
    var out: [String] = []
    var index = 0
    while let name = names[index] {
      out.append(String(cString: name))
      index += 1
    }
    return out
  }

  /// The bytes of the blob field `name`; nil when absent.
  static func blob(_ name: String, of image: UnsafeMutablePointer<CVips.VipsImage>) -> [UInt8]? {
    var data: UnsafeRawPointer?
    var length = 0
    guard vips_image_get_blob(image, name, &data, &length) == 0, let data else {
      vips_error_clear()
      return nil
    }
    return Array(UnsafeRawBufferPointer(start: data, count: length))
  }

  @Test("the header fields are the ones libvips lists for an image without metadata")
  func headerFieldsAreLibvipssOwn() throws {
    let bare = try VipsImage.pixels([1, 2, 3], width: 1, height: 1, bands: 3)
    let listed = Self.fields(of: bare.pointer)
    #expect(!listed.isEmpty)
    for name in listed { #expect(cvips_is_header_field(name) == 1, "\(name)") }
    let tagged = try bare.settingBlob("xmp-data", Array("<x:xmpmeta/>".utf8))
      .settingBlob("icc-profile-data", [0, 1, 2])
    let metadata = Self.fields(of: tagged.pointer).filter { !listed.contains($0) }
    #expect(Set(metadata) == ["xmp-data", "icc-profile-data"])
    for name in metadata + ["Width", "width2", "", "exif-ifd0-Make", "orientation"] {
      #expect(cvips_is_header_field(name) == 0, "\(name)")
    }
  }

  /// Against libvips' `copy` with a new size: the same header (but the size and bands) and
  /// the same metadata, each value equal.
  @Test("a new memory image has its model's header and metadata at its own size")
  func newMemoryImageKeepsHeaderAndMetadata() throws {
    let model = try Fixtures.gradient(width: 9, height: 7, layout: .rgb)
      .settingBlob("xmp-data", Array("<x:xmpmeta/>".utf8))
      .settingBlob("icc-profile-data", Array(repeating: 7, count: 40))
    for (width, height, bands) in [(3, 5, 3), (20, 1, 4), (1, 1, 1)] {
      let made = try #require(
        cvips_image_new_memory_bands(model.pointer, Int32(width), Int32(height), Int32(bands)))
      let image = VipsImage(owning: made)
      #expect(image.width == width && image.height == height && image.bands == bands)
      #expect(cvips_image_is_memory(made) == 1)
      #expect(image.format == model.format && image.interpretation == model.interpretation)
      #expect(Self.fields(of: made) == Self.fields(of: model.pointer))
      for name in ["xmp-data", "icc-profile-data"] {
        #expect(Self.blob(name, of: made) == Self.blob(name, of: model.pointer), "\(name)")
      }
    }
  }

  /// Generated names: a module file is wanted when it has the platform's suffix, and, when
  /// only trusted modules are wanted, none of the three untrusted prefixes.
  @Test("module names: the suffix, and the untrusted three only when asked for")
  func moduleNames() {
    var random = PropertyRandom(seed: 11)
    let prefixes = [
      "vips-magick.", "vips-poppler.", "vips-openslide.", "vips-heif.", "libvips-", "",
    ]
    let suffixes = [".so", ".dylib", ".so.1", "", ".SO", ".sox"]
    for _ in 0..<200 {
      let prefix = prefixes.randomElement(using: &random)!
      let suffix = suffixes.randomElement(using: &random)!
      let name = prefix + "x\(Int.random(in: 0...9, using: &random))" + suffix
      let untrusted =
        prefix.hasPrefix("vips-magick") || prefix.hasPrefix("vips-poppler")
        || prefix.hasPrefix("vips-openslide")
      let module = name.hasSuffix("." + G_MODULE_SUFFIX)
      #expect(cvips_module_is_wanted(name, 0) == (module ? 1 : 0), "\(name)")
      #expect(cvips_module_is_wanted(name, 1) == (module && !untrusted ? 1 : 0), "\(name)")
    }
  }
}
