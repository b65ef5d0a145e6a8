/// What a boxed recipe does when its master is smaller than the output.
public enum UpscalePolicy: String, Sendable, Codable, CaseIterable, Hashable {
  /// Render anyway and report the factor.
  case warn
  /// Leave the slot empty and report it.
  case never
  /// Render silently.
  case allow
}
