/// A resampling kernel for ``VipsImage/resize(scale:verticalScale:kernel:)``.
package enum Kernel: String, Sendable, CaseIterable, Codable {
  case nearest, linear, cubic, mitchell, lanczos2, lanczos3
}
