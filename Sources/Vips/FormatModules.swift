internal import CVips
internal import CVipsHelpers
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libvips' optional format modules (HEIF, PDF, JPEG XL, ImageMagick, OpenSlide), loaded
/// on first need rather than at start-up.
///
/// libvips 8.14 links every module in its module folder during `vips_init`: libheif,
/// poppler, libjxl, ImageMagick and OpenSlide with their dependencies, a large part of
/// every process's start-up (and of a no-change rebuild) although most builds only read JPEG,
/// PNG and SVG, which libvips handles itself. So libvips starts with that folder hidden,
/// and the first lookup that misses (no loader for a file or buffer, no operation or
/// saver of that name) loads all of them and looks again: what can be read or written
/// never depends on whether the modules were loaded yet.
enum FormatModules {
  private struct State {
    /// The folder still to load, or nil once loaded (or when libvips loaded it itself).
    var pending: String?
    /// Whether start-up deferred the modules (so a lookup may have missed for want of them).
    var deferred = false
  }

  private static let state = Mutex(State())

  /// Runs libvips' start-up with the module folder hidden, when it can be loaded later.
  ///
  /// Call once, before other threads use the environment: libvips finds the folder
  /// through `VIPSHOME`, which is pointed elsewhere for the call. A `VIPSHOME` of the
  /// user's own is left alone (libvips then loads what it names, as usual).
  static func startDeferred(_ start: () -> Int32) -> Int32 {
    let hidden = hide()
    let status = start()
    reveal(hidden, started: status == 0)
    return status
  }

  /// The first half of ``startDeferred(_:)``: hides the module folder from libvips'
  /// start-up, and returns it (nil: not hidden, libvips loads its modules itself). Changes
  /// the environment: call it while no other thread runs.
  static func hide() -> String? {
    guard getenv("VIPSHOME") == nil, let folder = moduleFolder() else { return nil }
    setenv("VIPSHOME", "/nonexistent/thumbforge-deferred-vips-modules", 1)
    return folder
  }

  /// The second half of ``startDeferred(_:)``, once libvips' start-up is over: undoes
  /// ``hide()`` and, when libvips started, keeps the folder for the first lookup that misses.
  static func reveal(_ hidden: String?, started: Bool) {
    guard let hidden else { return }
    unsetenv("VIPSHOME")
    guard started else { return }
    state.withLock {
      $0.pending = hidden
      $0.deferred = true
    }
  }

  /// The folder libvips loads its modules from: `vips-modules-MAJOR.MINOR` beside the
  /// libvips library this process mapped (found in /proc/self/maps, so Linux only; nil
  /// elsewhere, where libvips then loads its modules itself).
  private static func moduleFolder() -> String? {
    #if os(Linux)
      // The whole table in one read, searched as bytes: it lists every mapping of the many
      // libraries libvips links, and decoding each line as text cost time on every run.
      let fd = open("/proc/self/maps", O_RDONLY)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var maps: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        maps += chunk[..<count]
      }
      let name = Array("/libvips.so".utf8)
      guard
        let hit = maps.indices.dropLast(name.count).first(where: { at in
          maps[at] == name[0] && maps[at..<at + name.count].elementsEqual(name)
        })
      else { return nil }
      let lineStart = maps[..<hit].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
      guard let pathStart = maps[lineStart..<hit].firstIndex(of: UInt8(ascii: "/")) else {
        return nil
      }
      let folder =
        String(decoding: maps[pathStart..<hit], as: UTF8.self)
        + "/vips-modules-\(vips_version(0)).\(vips_version(1))"
      var info = stat()
      return stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? folder : nil
    #else
      return nil
    #endif
  }

  /// Loads the modules if they are still pending. Returns whether start-up deferred them:
  /// then a lookup that missed may have missed for want of them (perhaps while another
  /// thread was loading them), and looking again can help.
  @discardableResult
  static func loadPending() -> Bool {
    state.withLock { state -> Bool in
      if let folder = state.pending {
        state.pending = nil
        _ = cvips_load_modules_filtered(folder, 0)
      }
      return state.deferred
    }
  }

  /// Loads the pending modules except those whose loaders libvips marks untrusted
  /// (ImageMagick, PDF through poppler, OpenSlide: `cvips_load_modules_filtered`), which are
  /// then never loaded in this process: the lookups that would have needed them fail as for
  /// any unknown format. Loading ImageMagick's module already reads its configuration, and
  /// format sniffing would run its code on the bytes, blocked or not.
  static func loadTrustedOnly() {
    state.withLock { state in
      guard let folder = state.pending else { return }
      state.pending = nil
      _ = cvips_load_modules_filtered(folder, 1)
    }
  }

  /// `lookup`, and once more after the deferred modules are loaded when it found nothing.
  static func retrying<T>(_ lookup: () -> T?) -> T? {
    if let found = lookup() { return found }
    guard loadPending() else { return nil }
    vips_error_clear()
    return lookup()
  }
}
