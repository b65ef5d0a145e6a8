#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A process-wide recursive lock around building and freeing libvips operations.
///
/// Debian bookworm's liborc 0.4.33 is not safe when one thread compiles an ORC program
/// (libvips does this while building `reduce`, `shrink` and friends) while another frees
/// one: a 10 000-file build with two jobs crashed inside liborc. Building and releasing are
/// cheap; evaluating pixels, the expensive part, stays outside the lock and fully parallel.
enum VipsLock {
  nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    return mutex
  }()

  static func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
