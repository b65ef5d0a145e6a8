import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

// Runs the built `thumbforge` binary as a subprocess and gives each test its own temporary
// asset folder and catalog.

/// What one run of the binary did.
struct CLIResult: CustomStringConvertible {
  var status: Int32
  /// True when the process was ended by a signal (then `status` is the signal number).
  var signalled: Bool
  var stdout: String
  var stderr: String
  var arguments: [String]

  var description: String {
    """
    thumbforge \(arguments.joined(separator: " "))
    exit \(signalled ? "signal " : "")\(status)
    --- stdout ---
    \(stdout)
    --- stderr ---
    \(stderr)
    """
  }
}

/// A `thumbforge` process that is running (or has ended).
final class RunningCLI: @unchecked Sendable {
  let process = Process()
  let arguments: [String]
  private let outURL: URL
  private let errURL: URL
  private let outHandle: FileHandle
  private let errHandle: FileHandle
  private let lock = NSLock()
  private var ended: (Int32, Bool)?
  private var waiters: [CheckedContinuation<(Int32, Bool), Never>] = []

  /// - Parameter memoryLimitKB: run under `ulimit -v` (address space, in KiB) through
  ///   `/bin/sh`, which `exec`s the binary, so that a signal still ends this very process.
  /// - Parameter removing: variables of this process's environment the tool does not get
  ///   (Xcode's, which switch diagnostics to Xcode's format, never reach it unless given
  ///   in `environment`).
  init(
    arguments: [String], in folder: URL, environment: [String: String] = [:],
    removing: [String] = [],
    asNobody: Bool = false,
    memoryLimitKB: Int? = nil
  )
    throws
  {
    self.arguments = arguments
    let id = UUID().uuidString
    outURL = folder.appendingPathComponent(".cli-\(id).out")
    errURL = folder.appendingPathComponent(".cli-\(id).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let binary = try CLI.binary()
    if asNobody {
      // Drops root's permission override, so that chmod 000 really hides a folder.
      process.executableURL = URL(fileURLWithPath: CLI.setpriv!)
      process.arguments =
        ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
    } else if let memoryLimitKB {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "ulimit -v \(memoryLimitKB) && exec \"$0\" \"$@\"", binary.path] + arguments
    } else {
      process.executableURL = binary
      process.arguments = arguments
    }
    process.currentDirectoryURL = folder
    var env = ProcessInfo.processInfo.environment
    for key in removing + ["XCODE_VERSION_ACTUAL", "XCODE_PRODUCT_BUILD_VERSION"] {
      env.removeValue(forKey: key)
    }
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardInput = FileHandle.nullDevice
    outHandle = try FileHandle(forWritingTo: outURL)
    errHandle = try FileHandle(forWritingTo: errURL)
    process.standardOutput = outHandle
    process.standardError = errHandle
    process.terminationHandler = { [self] process in
      let result = (process.terminationStatus, process.terminationReason == .uncaughtSignal)
      lock.lock()
      ended = result
      let pending = waiters
      waiters = []
      lock.unlock()
      for waiter in pending { waiter.resume(returning: result) }
      // The handler holds this object, which holds the process: let go of the cycle.
      process.terminationHandler = nil
    }
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }

  /// Whether the process has ended.
  var hasEnded: Bool {
    lock.lock()
    defer { lock.unlock() }
    return ended != nil
  }

  /// Sends `signal` (SIGKILL by default) to the process.
  func send(_ signal: Int32 = SIGKILL) {
    _ = kill(pid, signal)
  }

  /// What the process has written so far (stdout, stderr), while it runs.
  func outputSoFar() -> (stdout: String, stderr: String) {
    (
      (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    )
  }

  /// Waits up to `seconds` for `condition` on the output so far (checked every 50 ms, on a
  /// thread of its own); true when it held, false when the time ran out or the process ended
  /// without it.
  func waitFor(
    seconds: Double, _ condition: @escaping @Sendable (_ stdout: String, _ stderr: String) -> Bool
  ) async -> Bool {
    await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      Thread.detachNewThread { [self] in
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
          let ended = hasEnded
          let (out, err) = outputSoFar()
          if condition(out, err) { return done.resume(returning: true) }
          if ended { return done.resume(returning: false) }
          usleep(50_000)
        }
        done.resume(returning: false)
      }
    }
  }

  /// Waits for the process to end and collects its output.
  /// If the waiting task is cancelled (a test's time limit), the process is killed, so that
  /// a hung tool fails its test instead of holding the whole run.
  func wait() async -> CLIResult {
    let (status, signalled) = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        lock.lock()
        if let ended {
          lock.unlock()
          continuation.resume(returning: ended)
        } else {
          waiters.append(continuation)
          lock.unlock()
        }
      }
    } onCancel: {
      send(SIGKILL)
    }
    try? outHandle.close()
    try? errHandle.close()
    let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(at: outURL)
    try? FileManager.default.removeItem(at: errURL)
    return CLIResult(
      status: status, signalled: signalled, stdout: stdout, stderr: stderr, arguments: arguments)
  }
}

enum CLIError: Error, CustomStringConvertible {
  case binaryNotFound([String])

  var description: String {
    switch self {
    case .binaryNotFound(let places):
      "the built 'thumbforge' binary was not found beside the test bundle (looked in: "
        + places.joined(separator: ", ") + "); build with 'swift build --build-tests' first"
    }
  }
}

enum CLI {
  /// The `thumbforge` executable built beside this test bundle.
  static func binary() throws -> URL {
    if let found = cachedBinary { return found }
    throw CLIError.binaryNotFound(searchedFolders.map(\.path))
  }

  private static let searchedFolders: [URL] = {
    var folders: [URL] = []
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    folders.append(exe.deletingLastPathComponent())
    if let first = CommandLine.arguments.first {
      folders.append(
        URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    let bundle = Bundle.main.bundleURL.resolvingSymlinksInPath()
    folders += [bundle, bundle.deletingLastPathComponent()]
    // A test bundle that is a folder (macOS: Foo.xctest/Contents/MacOS/Foo): walk up.
    var url = exe.deletingLastPathComponent()
    for _ in 0..<4 {
      url = url.deletingLastPathComponent()
      folders.append(url)
    }
    return folders
  }()

  private static let cachedBinary: URL? = {
    for folder in searchedFolders {
      let candidate = folder.appendingPathComponent("thumbforge")
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder),
        !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
    }
    return nil
  }()

  /// `setpriv` (util-linux), used to run as `nobody` when the tests run as root.
  static let setpriv: String? = {
    for path in ["/usr/bin/setpriv", "/bin/setpriv"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    return nil
  }()

  /// Runs `thumbforge ARGUMENTS` in `folder` and waits for it.
  static func run(_ arguments: [String], in folder: URL, asNobody: Bool = false) async throws
    -> CLIResult
  {
    try await RunningCLI(arguments: arguments, in: folder, asNobody: asNobody).wait()
  }
}

/// A fresh temporary folder for one test: `assets/` (with `thumbforge.yml`) and `out/`,
/// where the catalog is `out/Assets.xcassets` and the manifest `out/manifest.json`.
final class Sandbox: @unchecked Sendable {
  let root: URL
  var assets: URL { root.appendingPathComponent("assets") }
  var out: URL { root.appendingPathComponent("out") }
  var catalog: URL { out.appendingPathComponent("Assets.xcassets") }
  var manifest: URL { out.appendingPathComponent("manifest.json") }

  static let defaultConfig = """
    output: ../out/Assets.xcassets
    rules:
      - match: "Flags/**"
        recipes: [variants, flag]

    """

  init(_ name: String = #function, config: String? = Sandbox.defaultConfig) throws {
    let safe = name.filter { $0.isLetter || $0.isNumber }.prefix(40)
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-cli-\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
    if let config { try write(config, to: "thumbforge.yml") }
  }

  deinit {
    if ProcessInfo.processInfo.environment["THUMBFORGE_KEEP_TEST_FOLDERS"] == nil {
      // Make anything a test locked readable again so it can be removed.
      _ = chmod(root.path, 0o755)
      if let items = FileManager.default.enumerator(atPath: root.path) {
        while let item = items.nextObject() as? String {
          _ = chmod(root.appendingPathComponent(item).path, 0o755)
        }
      }
      try? FileManager.default.removeItem(at: root)
    }
  }

  /// `thumbforge build assets ARGUMENTS`.
  func build(_ arguments: [String] = [], asNobody: Bool = false) async throws -> CLIResult {
    try await CLI.run(["build", assets.path] + arguments, in: root, asNobody: asNobody)
  }

  /// `thumbforge check assets ARGUMENTS`.
  func check(_ arguments: [String] = []) async throws -> CLIResult {
    try await CLI.run(["check", assets.path] + arguments, in: root)
  }

  /// `thumbforge regenerate -f assets NAMES`.
  func regenerate(_ names: [String], _ arguments: [String] = []) async throws -> CLIResult {
    try await CLI.run(["regenerate", "-f", assets.path] + arguments + names, in: root)
  }

  func write(_ text: String, to relative: String) throws {
    try write(Data(text.utf8), to: relative)
  }

  /// Writes a file in the asset folder, creating its folders.
  func write(_ data: Data, to relative: String, in base: URL? = nil) throws {
    let url = (base ?? assets).appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  func asset(_ relative: String) -> URL { assets.appendingPathComponent(relative) }
  func inCatalog(_ relative: String) -> URL { catalog.appendingPathComponent(relative) }

  /// Writes an image made with libvips into the asset folder.
  func image(_ relative: String, _ image: VipsImage, quality: Int = 90) throws {
    let format: ImageFormat = relative.hasSuffix(".png") ? .png : .jpeg
    try write(
      Data(try image.encoded(as: format, options: SaveOptions(quality: quality))), to: relative)
  }

  /// Writes a plain SVG master of `width`×`height` points into the asset folder.
  func svg(_ relative: String, width: Int, height: Int, colors: [String] = ["#c8102e", "#ffffff"])
    throws
  {
    try write(Fixtures.svg(width: width, height: height, colors: colors), to: relative)
  }

  func readManifest() throws -> [String: Any] {
    let data = try Data(contentsOf: manifest)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }
}

/// What a folder holds: relative path → (hash, modification time).
struct FolderSnapshot: Equatable {
  struct Entry: Equatable {
    var bytes: Data
    var modified: Int64
    var inode: UInt64
  }

  var files: [String: Entry]

  /// Every regular file under `folder` (hidden ones included unless `skipHidden`).
  init(_ folder: URL, skipHidden: Bool = false) {
    var files: [String: Entry] = [:]
    let base = folder.resolvingSymlinksInPath().path
    if let items = FileManager.default.enumerator(atPath: base) {
      while let item = items.nextObject() as? String {
        let path = base + "/" + item
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
        if skipHidden && item.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
          continue
        }
        #if os(Linux)
          let time = info.st_mtim
        #else
          let time = info.st_mtimespec
        #endif
        let modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        files[item] = Entry(
          bytes: FileManager.default.contents(atPath: path) ?? Data(), modified: modified,
          inode: UInt64(info.st_ino))
      }
    }
    self.files = files
  }

  var paths: [String] { files.keys.sorted() }

  /// Paths whose bytes differ, or that are only in one of the two.
  func changedContent(comparedTo other: FolderSnapshot) -> [String] {
    Set(files.keys).union(other.files.keys).filter { files[$0]?.bytes != other.files[$0]?.bytes }
      .sorted()
  }

  /// Paths that were written (bytes, mtime or inode differ), or that are only in one of the two.
  func touched(comparedTo other: FolderSnapshot) -> [String] {
    Set(files.keys).union(other.files.keys).filter { files[$0] != other.files[$0] }.sorted()
  }
}

/// Reads a file of the catalog as an image (libvips).
func imageSize(_ url: URL) throws -> (Int, Int) {
  let image = try VipsImage.load(path: url.path)
  return (image.width, image.height)
}

/// Truncates a copy of `data` to `fraction` of its length.
func truncated(_ data: Data, fraction: Double = 0.5) -> Data {
  data.prefix(Int(Double(data.count) * fraction))
}
