/// A resampling kernel for ``VipsImage/resize(scale:verticalScale:kernel:)``.
public enum Kernel: String, Sendable, CaseIterable, Codable {
  case nearest, linear, cubic, mitchell, lanczos2, lanczos3
}
