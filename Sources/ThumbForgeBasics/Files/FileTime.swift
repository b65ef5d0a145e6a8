#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

extension timespec {
  /// The time in nanoseconds since the epoch, the unit every file stamp and cache uses.
  /// Times beyond ±292 years of 1970 (a file dated 2600 by a broken archive or clock) wrap
  /// instead of trapping: the value only identifies a version of a file, compared for
  /// equality, and wrapping still changes it when the time changes.
  package var nanoseconds: Int64 { Int64(tv_sec) &* 1_000_000_000 &+ Int64(tv_nsec) }
}

extension stat {
  /// Modification time in nanoseconds: `st_mtim` on Linux, `st_mtimespec` on Darwin.
  package var modifiedNanoseconds: Int64 {
    #if os(Linux)
      st_mtim.nanoseconds
    #else
      st_mtimespec.nanoseconds
    #endif
  }

  /// Status change time in nanoseconds: `st_ctim` on Linux, `st_ctimespec` on Darwin.
  package var changedNanoseconds: Int64 {
    #if os(Linux)
      st_ctim.nanoseconds
    #else
      st_ctimespec.nanoseconds
    #endif
  }
}
