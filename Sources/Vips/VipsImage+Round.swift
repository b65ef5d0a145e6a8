extension VipsImage {
  /// Band values rounded to the nearest integer, ties to even (libvips' `round` with `rint`),
  /// in the image's own format: a float image becomes exact for ``cast(to:)``, which
  /// truncates.
  package func rounded() throws(VipsError) -> VipsImage {
    try VipsOperation.image("round", ["in": .image(self), "round": .string("rint")])
  }
}
