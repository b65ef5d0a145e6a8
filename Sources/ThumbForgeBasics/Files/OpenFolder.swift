#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A folder kept open so that files in it are looked up relative to it: the kernel then
/// walks only the relative part of each path, which adds up over thousands of files.
/// Immutable, so threads may look files up in it at once.
package final class OpenFolder: Sendable {
  /// The folder's path.
  package let path: String
  private let descriptor: Int32

  package init(path: String) {
    self.path = path
    descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// `stat` of a file in the folder, following symbolic links; nil when it cannot be read.
  /// Absolute or empty paths, and every path when the folder could not be opened, are looked
  /// up by their full path instead.
  package func info(of relativePath: String) -> stat? {
    var info = stat()
    let found =
      descriptor >= 0 && !relativePath.isEmpty && !relativePath.hasPrefix("/")
      ? fstatat(descriptor, relativePath, &info, 0) : stat(path + "/" + relativePath, &info)
    return found == 0 ? info : nil
  }
}
