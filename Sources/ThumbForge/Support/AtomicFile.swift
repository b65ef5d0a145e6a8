internal import Foundation

/// Writes files by writing a temporary file in the same folder and renaming it into place,
/// so a reader (or a crash) sees the old file or the new one, never a torn one.
public enum AtomicFile {
  /// The prefix of every temporary file ThumbForge makes; leftovers are swept by the next run.
  public static let temporaryPrefix = ".thumbforge-tmp-"

  /// Writes `bytes` to `path`, creating parent folders.
  public static func write(_ bytes: some Collection<UInt8>, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(
      "\(temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))-\(url.lastPathComponent)")
    let data = Data(bytes)
    do {
      try data.write(to: temporary)
      if rename(temporary.path, url.path) != 0 {
        let code = errno
        throw CocoaError(
          .fileWriteUnknown,
          userInfo: [
            NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(code)),
          ])
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  /// Removes temporary files a killed run left in `folder` and its sub-folders.
  @discardableResult
  public static func sweep(folder: String) -> Int {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return 0 }
    var removed = 0
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(temporaryPrefix) {
        if (try? FileManager.default.removeItem(atPath: folder + "/" + relative)) != nil {
          removed += 1
        }
      }
    }
    return removed
  }
}
