internal import CVips

/// A libvips failure, carrying libvips' own message.
package struct VipsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What we were doing (an operation nickname or a file).
  package var context: String
  /// libvips' message, without trailing newlines.
  package var message: String
  /// Whether the image was refused for its size (over a pixel limit), not for its bytes.
  package var isOverLimit = false

  package init(context: String, message: String, isOverLimit: Bool = false) {
    self.context = context
    self.message = message
    self.isOverLimit = isOverLimit
  }

  package var description: String {
    message.isEmpty ? context : "\(context): \(message)"
  }

  /// Copies and clears libvips' process-wide error buffer under its lock.
  ///
  /// The buffer is shared by every thread, and some loaders (libheif's) leave a message
  /// behind even when they succeed, so it can hold lines about other files: a line that
  /// names a file other than `file` (the one a loader read, if any) is dropped.
  static func fromBuffer(context: String, file: String? = nil) -> VipsError {
    var text = ""
    if let copy = vips_error_buffer_copy() {
      text = String(cString: copy)
      g_free(copy)
    }
    let lines = text.split(separator: "\n").map(String.init)
    // libvips repeats lines when several calls fail on the same error; keep each once.
    var seen = Set<String>()
    let unique = lines.filter { !namesAnotherFile($0, than: file) && seen.insert($0).inserted }
    return VipsError(context: context, message: unique.joined(separator: "; "))
  }

  /// The error with only the lines of its message that name no file but `file`.
  package func about(file: String) -> VipsError {
    var error = self
    error.message = message.split(separator: "; ").map(String.init)
      .filter { !Self.namesAnotherFile($0, than: file) }.joined(separator: "; ")
    return error
  }

  /// Whether `line` names a file path (a word with a `/` and an extension after it) that is
  /// not `file` nor a part of its path (a path with spaces is split into words).
  package static func namesAnotherFile(_ line: String, than file: String?) -> Bool {
    for word in line.split(whereSeparator: \.isWhitespace) {
      let token = word.trimmingCharacters(in: "\"'`:,;()[]")
      guard let slash = token.lastIndex(of: "/"),
        token[slash...].dropFirst().contains("."), !token.hasSuffix(".")
      else { continue }
      guard let file, file.hasSuffix(token) || token.hasSuffix(file) else { return true }
    }
    return false
  }
}

extension Substring {
  /// The substring without leading and trailing characters of `set`.
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    var result = self
    while let first = result.first, set.contains(first) { result = result.dropFirst() }
    while let last = result.last, set.contains(last) { result = result.dropLast() }
    return result
  }
}
