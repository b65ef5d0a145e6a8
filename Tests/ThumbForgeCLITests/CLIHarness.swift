import Foundation
import Testing
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

  init(
    arguments: [String], in folder: URL, environment: [String: String] = [:], asNobody: Bool = false
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
    } else {
      process.executableURL = binary
      process.arguments = arguments
    }
    process.currentDirectoryURL = folder
    var env = ProcessInfo.processInfo.environment
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

  /// Waits for the process to end and collects its output.
  func wait() async -> CLIResult {
    let (status, signalled) = await withCheckedContinuation { continuation in
      lock.lock()
      if let ended {
        lock.unlock()
        continuation.resume(returning: ended)
      } else {
        waiters.append(continuation)
        lock.unlock()
      }
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
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
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

/// Fixture images.
enum Fixtures {
  /// A photo-like RGB image: nested coloured rectangles on a background, varied by `seed`
  /// (two `embed`s: cheap to make even by the hundred).
  static func photo(width: Int, height: Int, seed: Int) throws -> VipsImage {
    let a = Double((seed * 37) % 256)
    let b = Double((seed * 91 + 60) % 256)
    let c = Double((seed * 53 + 120) % 256)
    let inner = try VipsImage.solid(
      width: max(1, width / 4), height: max(1, height / 4), color: [c, a, b])
    let middle = try inner.embed(
      x: (seed * 7) % max(1, width / 4), y: (seed * 5) % max(1, height / 4),
      width: max(1, width / 2), height: max(1, height / 2), background: [b, c, a])
    return try middle.embed(
      x: (seed * 13) % max(1, width / 2), y: (seed * 11) % max(1, height / 2), width: width,
      height: height, background: [a, b, c])
  }

  /// An RGBA image: a coloured disc-less square on transparency.
  static func icon(width: Int, height: Int, seed: Int) throws -> VipsImage {
    let clear = try VipsImage.solid(width: width, height: height, color: [0, 0, 0, 0])
    let square = try VipsImage.solid(
      width: width / 2, height: height / 2,
      color: [Double((seed * 41) % 256), Double((seed * 97) % 256), 200, 255])
    return try clear.composite(square, x: width / 4, y: height / 4)
  }

  /// A striped SVG of `width`×`height` points.
  static func svg(width: Int, height: Int, colors: [String]) -> String {
    let band = Double(height) / Double(max(1, colors.count))
    let rects = colors.enumerated().map { index, color in
      "<rect x=\"0\" y=\"\(Double(index) * band)\" width=\"\(width)\" height=\"\(band)\" fill=\"\(color)\"/>"
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)">
      \(rects.joined(separator: "\n"))
      </svg>

      """
  }

  /// A valid PNG of `width`×`height` 1-bit grey pixels, all black, made without libvips so
  /// that even a 30000×30000 image takes milliseconds: one fixed-Huffman deflate block of
  /// runs of zero bytes.
  static func blackPNG(width: Int, height: Int) -> Data {
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var ihdr = Data()
    ihdr.appendBigEndian(UInt32(width))
    ihdr.appendBigEndian(UInt32(height))
    ihdr.append(contentsOf: [1, 0, 0, 0, 0])  // 1-bit grey, deflate, no filter, no interlace
    png.appendChunk("IHDR", ihdr)

    let rowBytes = 1 + (width + 7) / 8  // filter byte + packed pixels; all zero
    let total = rowBytes * height
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE = fixed Huffman
    let literalZero = BitWriter.reversed(0x30, length: 8)
    // Length code 285 (258 bytes, 8 bits) then distance code 0 (distance 1, 5 bits).
    let run258 = BitWriter.reversed(0xC5, length: 8) | BitWriter.reversed(0, length: 5) << 8
    bits.write(literalZero, count: 8)
    var remaining = total - 1
    while remaining >= 258 {
      bits.write(run258, count: 13)
      remaining -= 258
    }
    for _ in 0..<remaining { bits.write(literalZero, count: 8) }
    bits.write(0, count: 7)  // end of block
    var zlib = Data([0x78, 0x01])
    zlib.append(contentsOf: bits.flushed)
    // Adler-32 of `total` zero bytes: a = 1, b = total mod 65521.
    zlib.appendBigEndian(UInt32(total % 65521) << 16 | 1)
    png.appendChunk("IDAT", zlib)
    png.appendChunk("IEND", Data())
    return png
  }

  /// `blackPNG(width: 30000, height: 30000)`, made once.
  static let hugePNG = blackPNG(width: 30000, height: 30000)
}

/// Packs bits least significant first, as deflate stores them.
private struct BitWriter {
  var bytes: [UInt8] = []
  private var accumulator: UInt64 = 0
  private var used: UInt64 = 0

  /// Writes the low `count` bits of `value`, least significant first.
  mutating func write(_ value: UInt64, count: UInt64) {
    accumulator |= value << used
    used += count
    while used >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: accumulator))
      accumulator >>= 8
      used -= 8
    }
  }

  /// A Huffman code with its bits reversed, so that `write` sends its top bit first.
  static func reversed(_ code: UInt64, length: UInt64) -> UInt64 {
    var result: UInt64 = 0
    for index in 0..<length where code & (1 << index) != 0 { result |= 1 << (length - 1 - index) }
    return result
  }

  /// The bytes written, the last partial byte padded with zero bits.
  var flushed: [UInt8] { used > 0 ? bytes + [UInt8(truncatingIfNeeded: accumulator)] : bytes }
}

extension Data {
  fileprivate mutating func appendBigEndian(_ value: UInt32) {
    append(contentsOf: [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ])
  }

  fileprivate mutating func appendChunk(_ type: String, _ data: Data) {
    appendBigEndian(UInt32(data.count))
    let body = Data(type.utf8) + data
    append(body)
    appendBigEndian(CRC32.of(body))
  }
}

private enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func of(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
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
