internal import Foundation

/// Writes files by writing a temporary file in the same folder and renaming it into place,
/// so a reader (or a crash) sees the old file or the new one, never a torn one.
package enum AtomicFile {
  /// The prefix of every temporary file ThumbForge makes; leftovers are swept by the next run.
  static let temporaryPrefix = ".thumbforge-tmp-"

  /// Writes `bytes` to `path`, creating parent folders; returns the new file's facts (the
  /// probe cache's stamp of a catalog file, without another look at the end of the build).
  ///
  /// With `durable`, the data reaches the disk before the rename (fsync): for the manifest
  /// and other state a crash must not lose. Catalog images and `Contents.json` are written
  /// without it, since the manifest records each one's hash and the next build re-renders
  /// any file a crash left incomplete; skipping the flush saves a disk round trip per file.
  @discardableResult
  package static func write(_ bytes: some Collection<UInt8>, to path: String, durable: Bool = true)
    throws -> FileFacts
  {
    let temporary = temporaryPath(beside: path)
    do {
      var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if descriptor < 0 && errno == ENOENT {
        try createFolder(of: path)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      }
      guard descriptor >= 0 else { throw posixError(path) }
      let written =
        bytes.withContiguousStorageIfAvailable { writeAll($0, to: descriptor) }
        ?? Array(bytes).withUnsafeBufferPointer { writeAll($0, to: descriptor) }
      let flushed = !durable || fsync(descriptor) == 0
      var info = stat()
      let described = written && flushed && fstat(descriptor, &info) == 0
      let failure = described ? 0 : errno
      guard close(descriptor) == 0 && failure == 0 else {
        if failure != 0 { errno = failure }
        throw posixError(path)
      }
      guard rename(temporary, path) == 0 else { throw posixError(path) }
      // The rename changed the file's change time; the rest is the descriptor's.
      var renamed = stat()
      if stat(path, &renamed) == 0, renamed.st_ino == info.st_ino { info = renamed }
      return FileFacts(info)
    } catch {
      unlink(temporary)
      throw error
    }
  }

  /// Puts a hard link to the file at `source` at `path` (creating parent folders), by way of
  /// a temporary name and a rename, so `path` shows the old file or the new one. Returns
  /// false, leaving nothing behind, where a link cannot be made (another file system, or
  /// one without hard links): the caller then writes a copy.
  ///
  /// `merge` links the files shards rendered instead of copying them: no data is copied and
  /// no inode made per file. ThumbForge only ever replaces catalog files by renaming new
  /// ones into place, so neither side of a link is changed through the other.
  package static func hardLink(_ source: String, to path: String) -> Bool {
    let temporary = temporaryPath(beside: path)
    var linked = link(source, temporary) == 0
    if !linked && errno == ENOENT {
      try? createFolder(of: path)
      linked = link(source, temporary) == 0
    }
    guard linked else { return false }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  /// A new temporary file name in `path`'s folder, naming this process (see `isLeftover`).
  /// Paths are split and joined as text: `URL`'s path operations look the result up in the
  /// file system, a lookup per file written.
  static func temporaryPath(beside path: String) -> String {
    let (folder, name) = split(path)
    return "\(folder)\(temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))-\(name)"
  }

  /// (`path`'s folder with its trailing slash, or "" for a bare name; its last component).
  static func split(_ path: String) -> (folder: Substring, name: Substring) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
    return (path[...slash], path[path.index(after: slash)...])
  }

  /// Creates the folder `path` is in: one `mkdir` when only that folder is missing, every
  /// missing ancestor otherwise.
  private static func createFolder(of path: String) throws {
    let folder = String(split(path).folder.dropLast())
    guard !folder.isEmpty, mkdir(folder, 0o777) != 0, errno != EEXIST else { return }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// Writes the whole buffer, retrying short writes and interruptions.
  private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < buffer.count {
      let count = Foundation.write(
        descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += count
    }
    return true
  }

  /// The current `errno` as an error naming `path`.
  private static func posixError(_ path: String) -> any Error {
    let code = errno
    return CocoaError(
      .fileWriteUnknown,
      userInfo: [
        NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(code)),
      ])
  }

  /// Removes temporary files a killed run left in `folder` and its sub-folders (only
  /// directly in `folder` when not `recursive`). Files of a process still running are kept.
  @discardableResult
  package static func sweep(folder: String, recursive: Bool = true) -> Int {
    let names: [String]
    if recursive {
      guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return 0 }
      names = enumerator.compactMap { $0 as? String }
    } else {
      names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
    var removed = 0
    for relative in names where isLeftover((relative as NSString).lastPathComponent) {
      if (try? FileManager.default.removeItem(atPath: folder + "/" + relative)) != nil {
        removed += 1
      }
    }
    return removed
  }

  /// Whether `name` is a temporary file whose writer (the pid in its name) is gone.
  static func isLeftover(_ name: String) -> Bool {
    guard name.hasPrefix(temporaryPrefix) else { return false }
    let pidText = name.dropFirst(temporaryPrefix.count).prefix { $0 != "-" }
    guard let pid = Int32(pidText) else { return true }
    return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
  }
}
