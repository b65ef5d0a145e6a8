internal import ThumbForgeConfig
internal import Vips

/// libvips started before it is needed: on a thread of its own, while the command line is
/// parsed and the configuration read (see `Vips.startEarly(warming:first:)`).
package enum LibvipsStart {
  /// The libvips operations a build of JPEG, PNG and SVG masters runs, as listed by a probe
  /// on `vips_operation_new` during builds of the sample folders. libvips builds each
  /// operation's class on its first use, and a second thread that needs a class being built
  /// waits: built ahead, the first masters' probes and renders run side by side at once.
  static let commonOperations = [
    "jpegload", "jpegload_buffer", "pngload", "svgload_buffer", "sequential", "linecache",
    "tilecache", "copy", "composite2", "colourspace",
  ]

  /// Starts libvips early, after readying the configuration reader on the same thread (see
  /// ``ConfigLoader/prepare()``: the configuration is read before libvips is first needed).
  /// Call it first thing in `main`, before any other thread runs.
  package static func begin() {
    Vips.startEarly(warming: commonOperations, first: ConfigLoader.prepare)
  }
}
