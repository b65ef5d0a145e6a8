import Foundation
import Synchronization
import Testing
import ThumbForgeTestSupport

/// The package plugin as a user of the package meets it: a throw-away package that depends on
/// this one by path, without the `Serve` trait, builds (so the package can be depended on: no
/// unsafe flags); `swift package thumbforge build|check` works in it on a small `Assets/`
/// folder; its `thumbforge` holds none of the server (no Hummingbird, no NIO) and says so
/// when asked to `serve`.
///
/// It builds ThumbForge and the `thumbforge` tool again in the throw-away package's own
/// scratch folder, which takes minutes when cold. That folder is a fixed one under the system
/// temporary directory (`thumbforge-plugin-test-scratch`, or THUMBFORGE_PLUGIN_TEST_SCRATCH),
/// kept between runs so that later runs are incremental. Set THUMBFORGE_SKIP_PLUGIN_TEST to
/// skip it.
@Suite("Package plugin")
struct PluginTests {
  static let skipped = ProcessInfo.processInfo.environment["THUMBFORGE_SKIP_PLUGIN_TEST"] != nil

  static var scratch: URL {
    if let path = ProcessInfo.processInfo.environment["THUMBFORGE_PLUGIN_TEST_SCRATCH"] {
      return URL(fileURLWithPath: path)
    }
    return FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-plugin-test-scratch")
  }

  @Test(
    "a package that depends on ThumbForge by path builds, and 'swift package thumbforge' builds and checks its Assets",
    .enabled(if: TestTier.slowRuns, "\(TestTier.slowSkipReason)"),
    .enabled(if: !skipped, "THUMBFORGE_SKIP_PLUGIN_TEST is set"),
    .timeLimit(.minutes(30)))
  func throwAwayPackage() async throws {
    let started = Date()
    let package = try ThrowAwayPackage(dependingOn: Fixtures.packageRoot)
    defer { package.remove() }
    let scratch = ["--scratch-path", Self.scratch.path]
    var timings: [String] = []

    func swift(_ arguments: [String]) async throws -> SwiftRun {
      let stepStarted = Date()
      let run = try await SwiftRun.run(arguments, in: package.root)
      timings.append(
        "swift \(arguments.joined(separator: " ")): "
          + String(format: "%.1fs", Date().timeIntervalSince(stepStarted)))
      return run
    }

    let build = try await swift(["build"] + scratch)
    try #require(build.status == 0, "\(build)")

    let plugin = try await swift(
      ["package"] + scratch + [
        "plugin", "--allow-writing-to-package-directory", "thumbforge", "build",
      ])
    try #require(plugin.status == 0, "\(plugin)")
    let imageSet = package.root.appendingPathComponent("Build/Assets.xcassets/Icon.imageset")
    for file in ["Contents.json", "Icon@2x.png", "Icon@3x.png"] {
      #expect(
        FileManager.default.fileExists(atPath: imageSet.appendingPathComponent(file).path),
        "\(file) missing from the imageset\n\(plugin)")
    }
    #expect(
      FileManager.default.fileExists(
        atPath: package.root.appendingPathComponent("Build/manifest.json").path),
      "no Build/manifest.json\n\(plugin)")

    let check = try await swift(
      ["package"] + scratch + ["--allow-writing-to-package-directory", "thumbforge", "check"])
    #expect(check.status == 0, "\(check)")
    #expect(check.output.contains("up to date"), "\(check)")
    try await Self.expectNoServer(scratch: Self.scratch, swift: swift)

    // A failing tool fails the command, and the plugin says how the tool ended.
    try FileManager.default.removeItem(at: imageSet.appendingPathComponent("Icon@2x.png"))
    let stale = try await swift(
      ["package"] + scratch + ["--allow-writing-to-package-directory", "thumbforge", "check"])
    #expect(stale.status != 0, "\(stale)")
    #expect(stale.output.contains("thumbforge check exited with status 1"), "\(stale)")

    print(
      "PluginTests: \(String(format: "%.1fs", Date().timeIntervalSince(started))) in all (scratch "
        + "\(Self.scratch.path)); "
        + timings.joined(separator: "; "))
  }

  /// The plugin's `thumbforge`, built without the `Serve` trait: no module of the server in
  /// it (their names are in every Swift symbol they define), and `serve` refused with why.
  static func expectNoServer(
    scratch: URL, swift: ([String]) async throws -> SwiftRun
  ) async throws {
    let binPath = try await swift(["build", "--scratch-path", scratch.path, "--show-bin-path"])
    let folder = binPath.output.split(separator: "\n").last.map(String.init) ?? ""
    // SwiftPM builds a plugin's tool as `thumbforge-tool`, beside the package's own products.
    let tool = try Data(
      contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("thumbforge-tool"))
    #expect(tool.count > 100_000, "no thumbforge-tool in \(folder)")
    for module in ["Hummingbird", "NIOCore", "Prometheus", "ServiceLifecycle"] {
      #expect(tool.range(of: Data(module.utf8)) == nil, "the plugin's thumbforge holds \(module)")
    }
    let serve = try await swift(
      [
        "package", "--scratch-path", scratch.path, "--allow-writing-to-package-directory",
        "thumbforge", "serve",
      ])
    #expect(serve.status != 0, "\(serve)")
    #expect(serve.output.contains("built without the server"), "\(serve)")
  }
}

/// A package in a new temporary folder: a library target that imports ThumbForge, and an
/// `Assets/` folder with one PNG master and a thumbforge.yml whose catalog is
/// `Build/Assets.xcassets`.
struct ThrowAwayPackage {
  let root: URL

  init(dependingOn repository: URL) throws {
    root = try Fixtures.temporaryDirectory(prefix: "thumbforge-plugin-package")
    let path = repository.standardizedFileURL.path
    let literal = path.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    try write(
      """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "ThrowAway",
        platforms: [.macOS(.v14)],
        // Only the plugin is wanted: none of the server (docs/xcode-and-plugin.md).
        dependencies: [.package(path: "\(literal)", traits: [])],
        targets: [.target(name: "ThrowAway")]
      )

      """, to: "Package.swift")
    try write(
      """
      /// The throw-away package's own code: ThumbForge is a dependency for its plugin only
      /// (the package's products are the tool and the plugin).
      public let assetFolder = "Assets"

      """, to: "Sources/ThrowAway/ThrowAway.swift")
    try write("output: ../Build/Assets.xcassets\n", to: "Assets/thumbforge.yml")
    try write(Fixtures.blackPNG(width: 90, height: 90), to: "Assets/Icon.png")
  }

  func write(_ text: String, to relative: String) throws {
    try write(Data(text.utf8), to: relative)
  }

  func write(_ data: Data, to relative: String) throws {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  func remove() {
    if ProcessInfo.processInfo.environment["THUMBFORGE_KEEP_TEST_FOLDERS"] == nil {
      try? FileManager.default.removeItem(at: root)
    }
  }
}

/// One run of the `swift` driver (from the PATH, else /opt/swift/usr/bin/swift), output and
/// error together in a file so that a long build cannot fill a pipe.
struct SwiftRun: CustomStringConvertible {
  var arguments: [String]
  var status: Int32
  var output: String

  var description: String {
    "swift \(arguments.joined(separator: " "))\nexit \(status)\n--- output ---\n\(output)"
  }

  static let executable: URL = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return URL(fileURLWithPath: "/opt/swift/usr/bin/swift")
  }()

  static func run(_ arguments: [String], in folder: URL) async throws -> SwiftRun {
    let log = folder.appendingPathComponent(".swift-run-\(UUID().uuidString.prefix(8)).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer {
      try? handle.close()
      try? FileManager.default.removeItem(at: log)
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = handle
    process.standardError = handle
    // Waits without holding one of the few cooperative threads for minutes. When the test's
    // time limit cancels the wait, the driver is interrupted (it stops its own children).
    let pid = Mutex<Int32>(0)
    let status: Int32 = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { process in
          continuation.resume(returning: process.terminationStatus)
        }
        do {
          try process.run()
          pid.withLock { $0 = process.processIdentifier }
        } catch {
          process.terminationHandler = nil
          continuation.resume(throwing: error)
        }
      }
    } onCancel: {
      let running = pid.withLock { $0 }
      if running > 0 { kill(running, SIGINT) }
    }
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return SwiftRun(arguments: arguments, status: status, output: output)
  }
}
