internal import CVips

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loader libvips picks for a JPEG or PNG file, told from its first bytes.
///
/// `vips_foreign_find_load` asks every loader class whether it takes the file: it lists and
/// sorts them all on each call, and most of them open and read the file to decide. On the
/// SnowSeeker build that was a noticeable share of the CPU, much of it in the first probes,
/// where both threads wait for the classes' first initialisation. JPEG and PNG are nearly every
/// master, and their signatures name libvips' loader for them (`jpegload`, `pngload`:
/// the built-in loaders of highest priority, which `CommonLoaderTests` checks against
/// `vips_foreign_find_load`); for any other file libvips looks as usual.
enum CommonLoader {
  /// `jpegload` or `pngload` (with `_buffer` for memory) when `prefix` starts with that
  /// format's signature; nil otherwise.
  static func name(forPrefix prefix: some Collection<UInt8>, buffer: Bool) -> String? {
    let base: String
    if prefix.starts(with: [0xFF, 0xD8, 0xFF]) {
      base = "jpegload"
    } else if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      base = "pngload"
    } else {
      return nil
    }
    return buffer ? base + "_buffer" : base
  }

  /// The loader for the file at `path` by its first bytes; nil when it is neither JPEG nor
  /// PNG or cannot be read (libvips then looks, and reports a missing file itself).
  static func name(forFile path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var prefix = [UInt8](repeating: 0, count: 8)
    let count = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return name(forPrefix: prefix.prefix(count), buffer: false)
  }
}
