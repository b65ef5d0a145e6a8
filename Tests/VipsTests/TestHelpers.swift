import Foundation
import ThumbForgeTestSupport

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-vipstests")
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Whether every value is within `tolerance` of the matching expected value.
func approximately(_ actual: [Double], _ expected: [Double], tolerance: Double = 1) -> Bool {
  actual.count == expected.count
    && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
}

/// A thread-safe counter for `concurrentPerform` bodies.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// A thread-safe flag that goes from unset to set once.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}

/// Fixed-size result slots written from `concurrentPerform` bodies.
final class Results<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [Result<Value, any Error>?]

  init(count: Int) {
    slots = Array(repeating: nil, count: count)
  }

  func set(_ index: Int, _ result: Result<Value, any Error>) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  func get(_ index: Int) -> Result<Value, any Error>? {
    lock.lock()
    defer { lock.unlock() }
    return slots[index]
  }
}
