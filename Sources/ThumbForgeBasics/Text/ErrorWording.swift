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
    // The decoder's own complaint, not whichever line came first: libvips' `source:` lines
    // (`source: bad seek to 1354`) name no loader nor file, and depend on how far its
    // threads had read (or come from another file failing at the same time: the error
    // buffer is the process's).
    let lines = message.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    if let complaint = lines.first(where: isDamage) {
      return "damaged or truncated image\(size): \(complaint)"
    }
    let line = lines.first { !$0.hasPrefix("source:") } ?? lines.first ?? ""
    return line.isEmpty ? "cannot be decoded (libvips gives no reason)\(size)" : line
  }

  static func formatBytes(_ count: Int) -> String {
    if count < 1024 { return "\(count) bytes" }
    let kb = Double(count) / 1024
    if kb < 1024 { return "\((kb * 10).rounded() / 10) KB" }
    return "\((kb / 1024 * 10).rounded() / 10) MB"
  }

  /// Whether a line of libvips' message says the file's data is damaged or ends early.
  private static func isDamage(_ line: String) -> Bool {
    let lower = line.lowercased()
    return ["premature end", "truncated", "unexpected end", "read error", "incomplete"].contains {
      lower.contains($0)
    }
  }
}
