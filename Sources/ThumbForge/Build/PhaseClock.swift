#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// One stage of a run as `--timings` reports it: its wall-clock time and the CPU time all of
/// the process's threads spent during it, so that `cpu / wall` is the number of cores the
/// stage kept busy.
package struct PhaseTime: Sendable, Equatable {
  package var name: String
  /// Seconds of wall-clock time.
  package var wall: Double
  /// Seconds of CPU time of the whole process (every thread) over the same interval.
  package var cpu: Double

  package init(name: String, wall: Double, cpu: Double) {
    self.name = name
    self.wall = wall
    self.cpu = cpu
  }
}

/// Times the consecutive stages of a run: each ``lap(_:at:)`` ends the stage that began at
/// the previous lap (or at the clock's start).
package struct PhaseClock: Sendable {
  /// The monotonic clock and the process's CPU clock, read together.
  package struct Reading: Sendable {
    package var wall: Double
    package var cpu: Double

    package static func now() -> Reading {
      Reading(wall: seconds(CLOCK_MONOTONIC), cpu: seconds(CLOCK_PROCESS_CPUTIME_ID))
    }

    private static func seconds(_ clock: clockid_t) -> Double {
      var time = timespec()
      clock_gettime(clock, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
  }

  private var last: Reading

  package init(since start: Reading = .now()) {
    last = start
  }

  /// Ends the current stage, named `name`, at `end` (now by default), and begins the next.
  package mutating func lap(_ name: String, at end: Reading = .now()) -> PhaseTime {
    defer { last = end }
    return PhaseTime(name: name, wall: end.wall - last.wall, cpu: end.cpu - last.cpu)
  }
}
