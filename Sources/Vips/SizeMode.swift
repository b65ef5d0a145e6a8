/// Which way `thumbnail` may resize (libvips' `VipsSize`).
public enum SizeMode: String, Sendable, CaseIterable {
  case both, up, down, force
}

/// Where a smart crop looks (libvips' `VipsInteresting`).
public enum Interesting: String, Sendable, CaseIterable {
  case none, centre, entropy, attention, low, high, all
}

/// A resampling kernel for ``VipsImage/resize(scale:verticalScale:kernel:)``.
public enum Kernel: String, Sendable, CaseIterable, Codable {
  case nearest, linear, cubic, mitchell, lanczos2, lanczos3
}

/// How two images are blended by ``VipsImage/composite(_:mode:x:y:)``.
public enum BlendMode: String, Sendable {
  case over
  case destIn = "dest-in"
  case source
  case atop
}
