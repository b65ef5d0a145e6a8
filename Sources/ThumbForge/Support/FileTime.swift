internal import Glibc

extension timespec {
  /// The time in nanoseconds since the epoch, the unit every file stamp and cache uses.
  /// Times beyond ±292 years of 1970 (a file dated 2600 by a broken archive or clock) wrap
  /// instead of trapping: the value only identifies a version of a file, compared for
  /// equality, and wrapping still changes it when the time changes.
  var nanoseconds: Int64 { Int64(tv_sec) &* 1_000_000_000 &+ Int64(tv_nsec) }
}
