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
  static func fromBuffer(context: String) -> VipsError {
    var text = ""
    if let copy = vips_error_buffer_copy() {
      text = String(cString: copy)
      g_free(copy)
    }
    let lines = text.split(separator: "\n").map(String.init)
    // libvips repeats lines when several calls fail on the same error; keep each once.
    var seen = Set<String>()
    let unique = lines.filter { seen.insert($0).inserted }
    return VipsError(context: context, message: unique.joined(separator: "; "))
  }
}
