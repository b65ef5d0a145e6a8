// C's `stdout` is a global the Swift 6 checker cannot see as safe; it is set once, at
// start-up, before any other thread runs: these imports let this file name it.
@preconcurrency import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

enum StandardOutput {
  /// Makes stdout line-buffered even when it is a pipe or a file (where C buffers it fully):
  /// a summary reaches `build --watch | tee log` as soon as it is printed, not when a buffer
  /// fills or the process exits.
  static func lineBuffered() {
    setvbuf(stdout, nil, _IOLBF, 0)
  }
}
