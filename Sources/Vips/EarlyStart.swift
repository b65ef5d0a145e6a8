internal import CVips
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libvips' start-up on a thread of its own (``Vips/startEarly(warming:first:)``), finished by
/// the first call that needs libvips (``finish()``, from `Vips.initialize()`).
///
/// The environment is changed on the calling thread only: while the new thread waits for
/// `state`'s lock, before it does anything, and after it has ended (glibc's `setenv` is not
/// safe beside another thread's `getenv`). The thread itself only reads it.
enum EarlyStart {
  private enum State {
    /// Neither asked for nor needed yet.
    case notAsked
    /// Running, with the module folder hidden from it (``FormatModules/hide()``).
    case running(thread: pthread_t, hidden: String?)
    /// Over, or never to be: libvips was needed first, or the thread could not start.
    case finished
  }

  private static let state = Mutex(State.notAsked)
  /// `vips_init`'s status, written by the thread before it ends (read after joining it).
  private static let status = Atomic<Int32>(0)
  /// The operations whose classes the thread builds after start-up.
  private static let warming = Mutex<[String]>([])
  /// What the thread runs before starting libvips (see ``Vips/startEarly(warming:first:)``).
  private static let first = Mutex<(@Sendable () -> Void)?>(nil)

  static func begin(warming operations: [String], first work: (@Sendable () -> Void)?) {
    warming.withLock { $0 = operations }
    first.withLock { $0 = work }
    state.withLock { state in
      guard case .notAsked = state else { return }
      // The thread is started first, so that the system brings it up (a millisecond or
      // more on a virtual machine whose other core is asleep) while the environment is
      // prepared here; it waits for this lock before reading `go`.
      guard let thread = spawn() else { return }
      Vips.silenceWarnings()
      let homeGiven = getenv("VIPSHOME") != nil
      let hidden = FormatModules.hide()
      // Without a VIPSHOME, libvips' start-up sets one itself (`g_setenv`), which must not
      // run beside this thread: libvips then starts on first use, as without an early
      // start, and the thread ends at once.
      guard homeGiven || hidden != nil else {
        pthread_detach(thread)
        return
      }
      go.store(true, ordering: .relaxed)
      state = .running(thread: thread, hidden: hidden)
      // An exit before libvips is first used (a usage error, `--help`) waits for the
      // thread, so that libvips' start-up never runs while the process is torn down.
      atexit { _ = try? Vips.initialize() }
    }
  }

  /// Whether the thread is to start libvips: set, if at all, before ``begin(warming:)``
  /// releases `state`, which the thread waits for.
  private static let go = Atomic<Bool>(false)

  /// Waits for the early start, if one is running, and returns its status; nil when none
  /// is (the caller then starts libvips itself). Called once, by `Vips.initialize()`.
  static func finish() -> Int32? {
    let running = state.withLock { state -> (pthread_t, String?)? in
      defer { state = .finished }
      guard case .running(let thread, let hidden) = state else { return nil }
      return (thread, hidden)
    }
    guard let (thread, hidden) = running else { return nil }
    pthread_join(thread, nil)
    let result = status.load(ordering: .acquiring)
    FormatModules.reveal(hidden, started: result == 0)
    return result
  }

  private static func spawn() -> pthread_t? {
    let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
      EarlyStart.run()
      return nil
    }
    #if canImport(Darwin)
      var thread: pthread_t?
      guard pthread_create(&thread, nil, body, nil) == 0 else { return nil }
      return thread
    #else
      var thread = pthread_t()
      guard pthread_create(&thread, nil, body, nil) == 0 else { return nil }
      return thread
    #endif
  }

  private static func run() {
    state.withLock { _ in }
    guard go.load(ordering: .relaxed) else { return }
    first.withLock { $0 }?()
    let result = Vips.start()
    if result == 0 {
      for name in warming.withLock({ $0 }) { warm(name) }
    }
    status.store(result, ordering: .releasing)
  }

  /// Builds the class of the operation `name` (and its parents') by making one instance.
  private static func warm(_ name: String) {
    guard let operation = vips_operation_new(name) else {
      vips_error_clear()
      return
    }
    g_object_unref(operation)
  }
}
