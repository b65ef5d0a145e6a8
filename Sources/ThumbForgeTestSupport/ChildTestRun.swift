internal import Foundation

/// This test binary run again as a child process with one test selected, for what only the
/// first use in a process shows (libvips' start-up) or what ends libvips for good (its leak
/// report at shutdown). The child's test tells by an environment variable that it is the
/// child; Linux only (the binary is found through `/proc/self/exe`).
package enum ChildTestRun {
  /// What the child did: its exit status and what it wrote.
  package struct Result: Sendable {
    package var status: Int32
    package var output: String
    package var errors: String
  }

  /// Whether this system can run the test binary again (`/proc/self/exe` exists).
  package static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: "/proc/self/exe")
  }

  /// Runs `filter` (`Suite/test`) alone in a child process with this process's
  /// environment changed by `changes` (nil removes a variable), and waits for it.
  package static func run(filter: String, environment changes: [String: String?])
    async throws -> Result
  {
    // The child runs for seconds: waited for on a thread of its own (see ``offPool(_:)``).
    try await offPool { try wait(filter: filter, environment: changes) }
  }

  private static func wait(filter: String, environment changes: [String: String?]) throws
    -> Result
  {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let directory = try Fixtures.temporaryDirectory(prefix: "thumbforge-child")
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("stdout.txt")
    let errURL = directory.appendingPathComponent("stderr.txt")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    var environment = ProcessInfo.processInfo.environment
    for (name, value) in changes { environment[name] = value }
    process.environment = environment
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Result(
      status: process.terminationStatus,
      output: try String(contentsOf: outURL, encoding: .utf8),
      errors: try String(contentsOf: errURL, encoding: .utf8))
  }
}
