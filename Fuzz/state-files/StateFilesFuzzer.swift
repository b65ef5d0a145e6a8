// libFuzzer target `state-files`: every on-disk state parser of ThumbForge (probe cache,
// manifest cache, pending list, manifest.json, thumbforge.yml). The first byte picks the
// parser; see StateFileProbe in the ThumbForge module for the properties checked. Built with
// Fuzz/state-files/build.sh; without THUMBFORGE_FUZZ it is a replay tool:
// `swift run fuzz-state-files FILE…` runs each file through the same check.
internal import Foundation
internal import ThumbForge

/// One scratch folder per process, in memory when /dev/shm exists (fsync-free writes).
private let scratch: URL = {
  let base =
    FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
  let url = URL(fileURLWithPath: base).appendingPathComponent(
    "thumbforge-fuzz-state-\(ProcessInfo.processInfo.processIdentifier)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}()

/// Removes the scratch tree when the process ends (libFuzzer ends with exit()).
private let removeAtExit: Void = {
  _ = atexit { try? FileManager.default.removeItem(at: scratch) }
}()

private func runOne(_ bytes: [UInt8]) {
  _ = removeAtExit
  do {
    try StateFileProbe.check(fuzzInput: bytes, directory: scratch)
  } catch {
    fatalError("state-files: \(error.description)")
  }
}

/// LeakSanitizer's built-in suppressions: swift-foundation on Linux leaks the 4 KB buffer
/// `Data(contentsOf:)` / `FileManager.contents(atPath:)` allocate for an empty file (its
/// zero-size path keeps a malloc'd chunk for a Data of length 0 and never frees it). That
/// is the toolchain's bug, not ThumbForge's, and every parser here reads files that way.
/// Likewise swift-corelibs-foundation's `_CFRegularExpressionCreate` leaks its copy of a
/// long pattern (a 400-character glob leaks, a 250-character one does not; `Glob` compiles each
/// rule's pattern with NSRegularExpression); only the allocation inside that function is
/// ignored.
@_cdecl("__lsan_default_suppressions")
package func leakSuppressions() -> UnsafePointer<CChar> {
  UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}
private let suppressions: StaticString = "leak:readBytesFromFile\nleak:_CFRegularExpressionCreate\n"

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  runOne(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

#if !THUMBFORGE_FUZZ
  @main
  struct Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          print("\(path): cannot read")
          continue
        }
        runOne(Array(data))
        print("\(path): ok")
      }
      try? FileManager.default.removeItem(at: scratch)
    }
  }
#endif
