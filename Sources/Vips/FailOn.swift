/// How strictly a loader treats damaged input (libvips' `fail-on`).
package enum FailOn: String, Sendable, CaseIterable, Codable {
  /// Never fail; decode what can be decoded (libvips' permissive default).
  case none
  /// Fail on truncated files.
  case truncated
  /// Fail on decoder errors.
  case error
  /// Fail on anything the decoder warns about (sharp's choice, and ours).
  case warning
}
