internal import Glibc

extension timespec {
  /// The time in nanoseconds since the epoch, the unit every file stamp and cache uses.
  var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
