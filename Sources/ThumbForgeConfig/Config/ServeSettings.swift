/// The `serve:` section of `thumbforge.yml`: how `thumbforge serve` answers requests. Every
/// key is a row of ``Setting/serve``.
package struct ServeSettings: Sendable, Equatable {
  /// Whether `fit:WxH` / `fill:WxH` recipes may be asked for in URLs.
  package var adHoc = false
  /// The largest side, in points, of an ad-hoc box.
  package var maxSize = 2048
  /// The result cache folder, relative to the asset folder (must be outside it).
  package var cache = "../Build/serve-cache"
  /// The result cache's size cap in megabytes (least recently used results go first).
  package var cacheSize = 512
  /// Megabytes of decoded masters (as a render decodes them, shrunk on load) kept in memory
  /// for the next renders of them.
  package var decodedCache = 256
  /// The `Cache-Control` header of every image response.
  package var cacheControl = "public, max-age=3600"
  /// Renders waiting beyond the running ones; more get 429.
  package var queue = 64
  /// Seconds a render may take before the request gets 503.
  package var timeout = 30
  /// The preview page at `/`; `nil`: on when listening on loopback only.
  package var preview: Bool?
  /// Folders users upload into: libvips' untrusted loaders (SVG, PDF, ImageMagick…) are
  /// blocked, and `limit-input-pixels` defaults to ``untrustedPixelLimit``.
  package var untrustedSources = false

  /// The most pixels of any output a render for `serve` makes (413 past it): 12 000 000, a
  /// 4000×3000 image. Sized so that the largest output rendered from a master of its own
  /// size, 36 B a pixel by the README's model (8 input, 16 working, 12 output), is 432 MB:
  /// within the 512 MB budget of the Kubernetes example's pod.
  package var maxOutputPixels = 12_000_000
  /// MB of estimated render memory admitted at once (see the README's *Limits and memory*);
  /// 0: half the memory limit (the cgroup's, else the machine's) less `decoded-cache`.
  package var memoryBudget = 0
  /// Seconds a connection may take to send a request's headers, or stay idle between
  /// requests, before it is closed.
  package var readTimeout = 10
  /// Seconds a client may take to accept each 64 KB of a response before the connection
  /// is closed.
  package var writeTimeout = 10
  /// Connections open at once, at most (and never more than the file-descriptor limit
  /// leaves room for); at the cap a new one replaces the connection idle longest, or is
  /// closed when all are busy.
  package var maxConnections = 2048

  /// The pixel limit of untrusted folders when the configuration sets none (about 40 MP).
  package static let untrustedPixelLimit = 40_000_000

  package init() {}
}
