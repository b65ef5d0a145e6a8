internal import Foundation
package import Vips

/// Turns libvips' messages into one plain line for a person.
package enum ErrorWording {
  /// One line for a failure to decode or render `file` (its absolute path, when the failure
  /// is about one file): a truncated container is said so from the file itself, whatever
  /// libvips says, since libvips often gives no message for one.
  package static func describe(_ error: VipsError, file: String? = nil, byteSize: Int? = nil)
    -> String
  {
    if !error.isOverLimit, let file, let data = FileManager.default.contents(atPath: file),
      let truncated = TruncationDiagnosis.reason(Array(data))
    {
      return truncated
    }
    let message = file.map { error.about(file: $0) }?.message ?? error.message
    let lower = message.lowercased()
    let size = byteSize.map { " (\(formatBytes($0)))" } ?? ""
    if lower.contains("is not a known file format") || lower.contains("not a known") {
      return "not an image file libvips can read\(size)"
    }
    if lower.contains("does not exist") { return "file does not exist" }
    if lower.contains("premature end") || lower.contains("truncated")
      || lower.contains("unexpected end")
      || lower.contains("read error") || lower.contains("incomplete")
    {
      return "damaged or truncated image\(size): \(firstLine(message))"
    }
    return firstLine(message).isEmpty
      ? "cannot be decoded (libvips gives no reason)\(size)" : firstLine(message)
  }

  static func formatBytes(_ count: Int) -> String {
    if count < 1024 { return "\(count) bytes" }
    let kb = Double(count) / 1024
    if kb < 1024 { return "\((kb * 10).rounded() / 10) KB" }
    return "\((kb / 1024 * 10).rounded() / 10) MB"
  }

  private static func firstLine(_ message: String) -> String {
    message.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
  }
}
