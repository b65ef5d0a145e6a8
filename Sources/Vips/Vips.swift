internal import CVips
internal import CVipsHelpers

/// Process-wide libvips settings and start-up.
///
/// libvips must be initialised once before any image is made; every entry point of this
/// module calls ``Vips/initialize()`` itself, so callers only need it to change settings.
package enum Vips {
  private static let initStatus: Int32 = {
    // Started early on a thread of its own (startEarly): wait for it to finish.
    if let status = EarlyStart.finish() { return status }
    silenceWarnings()
    return FormatModules.startDeferred(start)
  }()

  /// libvips prints decoder warnings to stderr; ThumbForge reports problems itself (and
  /// fail-on turns the warnings that matter into errors), so keep them off the terminal.
  /// Changes the environment: call it while no other thread runs.
  static func silenceWarnings() {
    setenv("VIPS_WARNING", "1", 0)
  }

  /// libvips' start-up and the settings every process gets; returns `vips_init`'s status.
  static func start() -> Int32 {
    let status = vips_init("thumbforge")
    guard status == 0 else { return status }
    // libvips' liborc paths off, for safety and for identical bytes on every CPU; see
    // `isVectorEnabled`.
    vips_vector_set_enabled(0)
    if let env = getenv("THUMBFORGE_VIPS_LEAK"), String(cString: env) == "1" {
      vips_leak_set(1)
    }
    return status
  }

  /// Starts libvips on a thread of its own and returns at once, so that its start-up
  /// (its own, and the first use of each operation class, which libvips builds on first
  /// use while other threads wait) overlaps what the caller does meanwhile, such as parsing
  /// arguments and reading the configuration. The first call that needs libvips waits for
  /// it; so does the process's exit.
  ///
  /// `warming` names the operations (`jpegload`, `copy` …) whose classes the thread builds
  /// after start-up: the ones the caller is about to use. Their results never depend on it.
  /// `work` runs on the thread first: a slow first use the caller needs sooner than libvips
  /// (it must only read the environment; the first call that needs libvips waits for it too).
  ///
  /// Call it first thing in `main`, while no other thread runs: it changes the environment
  /// (libvips reads it). Later calls, and calls after libvips has started, do nothing.
  package static func startEarly(
    warming operations: [String] = [], first work: (@Sendable () -> Void)? = nil
  ) {
    EarlyStart.begin(warming: operations, first: work)
  }

  /// Starts libvips once; safe to call from any thread any number of times.
  /// - Throws: ``VipsError`` when libvips cannot start (for example a broken install).
  package static func initialize() throws(VipsError) {
    if initStatus != 0 {
      throw VipsError.fromBuffer(context: "vips_init")
    }
  }

  /// The libvips version the process runs, such as `8.14.1`.
  package static var version: String {
    _ = try? initialize()
    return "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))"
  }

  /// The number of worker threads libvips uses inside one image pipeline.
  ///
  /// ThumbForge runs several images at once, so it keeps this at 1 on small machines.
  package static var concurrency: Int {
    get {
      _ = try? initialize()
      return Int(vips_concurrency_get())
    }
    set {
      _ = try? initialize()
      vips_concurrency_set(Int32(newValue))
    }
  }

  /// Whether libvips runs its liborc (run-time compiled SIMD) paths. Always `false` once
  /// libvips has started, for two reasons:
  ///
  /// - **Thread safety without a lock.** Debian bookworm's liborc 0.4.33 frees a program's
  ///   code memory (`orc_code_chunk_free`, reached from `vips_vector_free` whenever an
  ///   operation that compiled one, such as `reducev` or `convi`, is released) without the
  ///   global mutex its allocator takes, so a release racing a compile in another thread
  ///   corrupts the code-memory list (a 10 000-file build with two jobs crashed in liborc).
  ///   With the paths off, libvips compiles only a few programs once per process (inside
  ///   `g_once`, under liborc's mutex) and frees none, so nothing needs serialising: no
  ///   process-wide lock, and a slow operation (a smart crop on a huge image) never holds
  ///   up another.
  /// - **The same bytes everywhere.** The compiled code differs per CPU; the C paths do not.
  ///
  /// Cost: none to speak of (ThumbForge resamples 8-bit images with its
  /// own code; liborc served only the smart crop's working images).
  package static var isVectorEnabled: Bool {
    _ = try? initialize()
    return vips_vector_isenabled() != 0
  }

  /// Tunes the C allocator for image work (glibc only; nothing elsewhere). Call before
  /// starting threads.
  ///
  /// glibc's defaults suit small objects: every thread allocating concurrently gets its own
  /// arena (up to eight per core) that keeps freed memory, and the threshold above which
  /// blocks are mapped on their own rises with each large block freed, so decoded photos
  /// of tens of megabytes pile up in arenas while mid-sized codec buffers are unmapped and
  /// faulted in again on every image. With one arena per job, blocks of 16 MB and more
  /// mapped on their own (returned at once when freed) and up to 64 MB of free heap kept,
  /// a build of large photos peaks lower and spends less system time (fewer page faults),
  /// at the same user time.
  package static func tuneAllocator(arenas: Int) {
    _ = cvips_tune_malloc(Int32(max(1, arenas)), 16 << 20, 64 << 20)
  }

  /// Returns the memory the C allocator keeps for reuse (freed buffers in every thread's
  /// arena) to the system. glibc only; nothing elsewhere.
  ///
  /// A build calls it when its workers move on from the large masters to much smaller
  /// ones: the large ones' freed buffers would otherwise stay resident under everything the
  /// small ones add (on the SnowSeeker folder, the flags' masks fault in librsvg at the
  /// very end), so the peak is the large masters' alone.
  package static func returnFreeMemory() {
    cvips_trim_malloc()
  }

  /// Sets libvips up as ThumbForge uses it, in builds and in `serve` alike; call before
  /// starting threads. No operation cache: a render's operations are never asked for again.
  /// libvips itself single-threaded, whatever the threads around it: its threaded sinks in
  /// 8.14 sometimes lose a loader's error (a truncated master decoded with two threads can
  /// "succeed", with one it never does), and a damaged master must be refused every time.
  /// The allocator tuned for `threads` threads doing image work (``tuneAllocator(arenas:)``).
  package static func configureForImageWork(threads: Int) {
    setOperationCache(maxOperations: 0)
    concurrency = 1
    tuneAllocator(arenas: threads)
  }

  /// The maximum number of operations libvips keeps in its operation cache (0 turns it off).
  package static func setOperationCache(maxOperations: Int, maxMemory: Int? = nil) {
    _ = try? initialize()
    vips_cache_set_max(Int32(maxOperations))
    if let maxMemory { vips_cache_set_max_mem(maxMemory) }
  }

  /// Turns libvips' reference-leak reporting on; the report is printed by ``shutdown()``.
  package static func enableLeakChecking() {
    _ = try? initialize()
    vips_leak_set(1)
  }

  /// Blocks loaders libvips marks as untrusted (SVG, PDF, ImageMagick, …) for input from
  /// strangers. Call it before the first file is read.
  ///
  /// libvips blocks the operation classes that exist when it is called, and a class
  /// registered later would not be blocked; so the deferred format modules are settled
  /// first: the trusted ones (HEIF, JPEG XL) loaded, the untrusted ones (ImageMagick, PDF,
  /// OpenSlide) never loaded at all in this process, since merely loading ImageMagick reads
  /// its configuration and format sniffing would run its code on the bytes.
  package static func blockUntrustedLoaders(_ block: Bool) {
    _ = try? initialize()
    if block { FormatModules.loadTrustedOnly() }
    vips_block_untrusted_set(block ? 1 : 0)
  }

  /// Whether savers can keep the ICC profile alone (libvips 8.15's `keep`); without it a
  /// file that keeps its profile also gets the encoder's own minimal EXIF block.
  package static var canKeepOnlyProfile: Bool {
    VipsOperation.has("jpegsave_buffer", argument: "keep")
  }

  /// Whether this libvips build can write the given format.
  package static func canSave(_ format: ImageFormat) -> Bool {
    _ = try? initialize()
    guard hasOperation(format.saverName + "_buffer") else { return false }
    return format != .avif || avifUnavailableReason == nil
  }

  /// Why this machine cannot write AVIF (nil: it can), in a few words: libheif has no AV1
  /// encoder (libaom, rav1e or SVT-AV1), or libvips was built without HEIF. Probed once, by
  /// encoding a tiny image.
  package static var avifUnavailableReason: String? { AVIFProbe.reason }

  /// Whether this libvips build has an operation (or loader) with this nickname.
  package static func hasOperation(_ nickname: String) -> Bool {
    _ = try? initialize()
    return FormatModules.retrying { vips_type_find("VipsOperation", nickname) != 0 ? true : nil }
      ?? false
  }

  /// Shuts libvips down; with leak checking on, reports objects still alive to stderr.
  package static func shutdown() {
    vips_shutdown()
  }
}
