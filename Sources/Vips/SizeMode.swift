/// Which way `thumbnail` may resize (libvips' `VipsSize`).
public enum SizeMode: String, Sendable, CaseIterable {
  case both, up, down, force
}
