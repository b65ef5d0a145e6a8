/// Which way `thumbnail` may resize (libvips' `VipsSize`).
package enum SizeMode: String, Sendable, CaseIterable {
  case both, up, down, force
}
