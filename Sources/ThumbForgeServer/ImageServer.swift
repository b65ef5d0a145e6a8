internal import Foundation
internal import Hummingbird
package import Logging
internal import Synchronization
package import ThumbForge
internal import Vips

/// The state and answers of `thumbforge serve`: images at
/// `/{signature}/{recipe}/{asset}@{scale}x.{ext}` (from the catalog when it holds the output
/// up to date, else from the result cache, else rendered once), `/readyz`, `/metrics` and
/// the preview page at `/`. Its routes and middleware are in ``router()``.
package final class ImageServer: Sendable {
  private let snapshot: Mutex<FolderSnapshot>
  let hot: HotOutputs
  /// Masters kept decoded for renders outside the catalog's plan (`serve.decoded-cache`).
  let decoded: DecodedMasters
  let signer: URLSigner?
  let cache: ResultCache
  let coordinator: RenderCoordinator
  let metrics: ServerMetrics
  let logger: Logger
  let preview: Bool
  /// Connections open now, and their cap (`serve.max-connections`).
  let connections: OpenConnections
  /// Whether `/metrics` answers on this listener (not when it has one of its own).
  let metricsHere: Bool
  /// The formats `.auto` requests may get beyond the recipe's own (AVIF, WebP: those this
  /// libvips can write).
  let canWrite: Set<ImageFormat>
  private let draining = Atomic<Bool>(false)

  /// A server over `folder`'s assets; `signer` nil: paths are unsigned (`/unsafe/…`).
  package init(
    folder: OnDemandFolder, signer: URLSigner?, preview: Bool, workers: Int, logger: Logger,
    metricsHere: Bool = true
  ) throws {
    let settings = folder.config.serve
    connections = OpenConnections(limit: settings.maxConnections)
    self.metricsHere = metricsHere
    canWrite = Set([ImageFormat.avif, .webp].filter { Vips.canSave($0) })
    snapshot = Mutex(FolderSnapshot(folder))
    hot = HotOutputs(capacity: 64 * 1_048_576)
    decoded = DecodedMasters(capacity: settings.decodedCache * 1_048_576)
    self.signer = signer
    self.preview = preview
    self.logger = logger
    let cacheFolder = URL(fileURLWithPath: settings.cache, relativeTo: folder.folder)
      .standardizedFileURL
    cache = try ResultCache(folder: cacheFolder, capacity: settings.cacheSize * 1_048_576)
    let metrics = ServerMetrics()
    self.metrics = metrics
    coordinator = RenderCoordinator(
      workers: workers, queueLimit: settings.queue,
      memoryBudget: MemoryBudget.bytes(
        configuredMB: settings.memoryBudget, decodedCacheBytes: settings.decodedCache * 1_048_576),
      onCancel: { metrics.cancelled() })
  }

  /// The folder as last loaded.
  var currentFolder: OnDemandFolder { snapshot.withLock { $0.folder } }

  /// Renders started since launch (every one a miss; coalesced requests start none).
  package var renderCount: Int { coordinator.renderCount.load(ordering: .relaxed) }

  /// Loads the folder again if anything in it changed; keeps the old one on a bad config.
  package func reloadIfChanged() {
    do {
      if let fresh = try currentFolder.reloaded() {
        snapshot.withLock { $0 = FolderSnapshot(fresh) }
        logger.info("asset folder changed: reloaded", metadata: ["assets": "\(fresh.assets.count)"])
      }
    } catch {
      logger.error("asset folder not reloaded: \(error.message)")
    }
  }

  /// From now on, renders are refused with 503 and `/readyz` says so (graceful shutdown).
  package func startDraining() {
    draining.store(true, ordering: .relaxed)
  }

  /// `/readyz`: 200 while serving, 503 once draining.
  func readiness() -> Response {
    draining.load(ordering: .relaxed)
      ? Self.text(.serviceUnavailable, "draining") : Self.text(.ok, "ready")
  }

  /// The preview page (`serve.preview`), or 404 when it is off.
  func previewPage() -> Response {
    guard preview else { return Self.text(.notFound, "not found") }
    var headers = HTTPFields()
    headers[.contentType] = "text/html; charset=utf-8"
    let page = PreviewPage(folder: currentFolder, signer: signer).html()
    return Self.body(Array(page.utf8), status: .ok, headers: headers)
  }

  /// The Prometheus exposition of the server's metrics.
  func metricsResponse() -> Response {
    metrics.update(
      cache: cache.usage, queue: coordinator.depth, budget: coordinator.memoryBudget,
      connections: connections.open)
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; version=0.0.4"
    return Self.body(metrics.exposition(), status: .ok, headers: headers)
  }

  /// The image `path` names (parsed, its signature accepted by ``ImageRoute``), and
  /// how its body was obtained (`catalog`, `hit`, `miss`, `coalesced`, or `-`).
  func image(_ request: Request, path: ServePath, pacing: BodyPacing)
    async -> (Response, String)
  {
    let snapshot = snapshot.withLock { $0 }
    let folder = snapshot.folder
    // `.auto`: the format from `Accept`, resolved (and remembered) per format chosen.
    let negotiated = path.format == nil
    let format = negotiated ? acceptedFormat(request) : path.format
    let key = negotiated ? path.signedPart + "\u{0}" + (format?.rawValue ?? "") : path.signedPart
    let resolution = snapshot.resolve(key) {
      Result { () throws(OnDemandError) in
        try folder.request(
          asset: path.asset, recipe: path.recipe, scale: path.scale, format: format)
      }
    }
    let resolved: OnDemandRequest
    switch resolution {
    case .success(let request): resolved = request
    case .failure(let error): return (refused(error), "-")
    }
    let (response, outcome) = await image(
      request, resolved: resolved, in: folder, pacing: pacing)
    guard negotiated else { return (response, outcome) }
    var varying = response
    varying.headers[.vary] = "Accept"
    return (varying, outcome)
  }

  /// The format an `.auto` request gets: AVIF when `Accept` names it and this server can
  /// write it, else WebP likewise, else nil (the recipe's own format: JPEG for photos, PNG
  /// with alpha). Only explicit types count: `image/*` and `*/*` promise neither.
  func acceptedFormat(_ request: Request) -> ImageFormat? {
    guard let accept = request.headers[.accept] else { return nil }
    let accepted = AcceptHeader(accept)
    for format in [ImageFormat.avif, .webp]
    where accepted.accepts(ImageServer.mimeType(format)) && canWrite.contains(format) {
      return format
    }
    return nil
  }

  /// The image of a resolved request: from memory, the catalog, the result cache, or rendered.
  private func image(
    _ request: Request, resolved: OnDemandRequest, in folder: OnDemandFolder, pacing: BodyPacing
  ) async -> (Response, String) {
    if let item = hot.item(for: resolved.cacheKey) {
      return (imageResponse(item, format: resolved.format, request: request, pacing: pacing), "hit")
    }
    if let (bytes, hash) = folder.catalogBytes(for: resolved) {
      let item = remember(bytes, hash: hash, for: resolved.cacheKey)
      return (
        imageResponse(item, format: resolved.format, request: request, pacing: pacing), "catalog"
      )
    }
    if let file = cache.file(for: resolved.cacheKey) {
      // Large results are sent from the file, never held whole per request.
      guard file.byteCount <= HotOutputs.largestItem,
        let data = FileManager.default.contents(atPath: file.path)
      else {
        return (
          fileResponse(file, format: resolved.format, request: request, pacing: pacing), "hit"
        )
      }
      let item = remember(Array(data), hash: file.hash, for: resolved.cacheKey)
      return (imageResponse(item, format: resolved.format, request: request, pacing: pacing), "hit")
    }
    guard !draining.load(ordering: .relaxed) else {
      return (Self.text(.serviceUnavailable, "the server is shutting down"), "-")
    }
    do {
      let (output, outcome) = try await coordinator.output(
        for: resolved.cacheKey, need: resolved.estimatedBytes,
        timeout: .seconds(folder.config.serve.timeout)
      ) { [self] in render(resolved, in: folder) }
      let item = remember(output.bytes, hash: output.hash, for: resolved.cacheKey)
      return (
        imageResponse(item, format: resolved.format, request: request, pacing: pacing),
        outcome.rawValue
      )
    } catch RenderCoordinator.Refusal.queueFull {
      var headers = HTTPFields()
      headers[.retryAfter] = "1"
      return (Self.text(.tooManyRequests, "too many renders waiting", headers: headers), "-")
    } catch RenderCoordinator.Refusal.overBudget(let need, let budget) {
      logger.warning(
        "\(resolved.asset): the render needs about \(need >> 20) MB, over serve.memory-budget (\(budget >> 20) MB)"
      )
      return (Self.text(.contentTooLarge, OnDemandError.tooLarge("").message), "-")
    } catch RenderCoordinator.Refusal.timedOut {
      var headers = HTTPFields()
      headers[.retryAfter] = "1"
      return (Self.text(.serviceUnavailable, "the render takes longer", headers: headers), "-")
    } catch let error as OnDemandError {
      return (refused(error), "-")
    } catch {
      return (Self.text(.internalServerError, "internal error"), "-")
    }
  }

  /// Renders the request's job, keeps every output in the cache, and records the time.
  private func render(_ request: OnDemandRequest, in folder: OnDemandFolder) -> Result<
    [RenderedOutput], OnDemandError
  > {
    let started = ContinuousClock.now
    let result = Result { () throws(OnDemandError) in try folder.render(request, decoded: decoded) }
    let elapsed = ContinuousClock.now - started
    metrics.rendered(
      nanoseconds: elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds
        / 1_000_000_000)
    if case .success(let outputs) = result {
      for output in outputs { cache.store(output.bytes, hash: output.hash, for: output.cacheKey) }
    }
    return result
  }

  private func refused(_ error: OnDemandError) -> Response {
    if error.status >= 413 { logger.warning("\(error.logDetail)") }
    var headers = HTTPFields()
    if case .changed = error { headers[.retryAfter] = "1" }
    return Self.text(HTTPResponse.Status(code: error.status), error.message, headers: headers)
  }

  /// Keeps an output in memory with its ETag (`hash`: the SHA-256 of its bytes, hex).
  private func remember(_ bytes: [UInt8], hash: String, for key: String) -> HotOutputs.Item {
    let item = HotOutputs.Item(bytes: bytes, etag: "\"" + hash + "\"")
    hot.store(item, for: key)
    return item
  }

  private func imageResponse(
    _ item: HotOutputs.Item, format: ImageFormat, request: Request, pacing: BodyPacing
  ) -> Response {
    imageResponse(etag: item.etag, format: format, request: request, byteCount: item.bytes.count) {
      Self.streamed(item.bytes, pacing: pacing)
    }
  }

  private func fileResponse(
    _ file: ResultCache.File, format: ImageFormat, request: Request, pacing: BodyPacing
  ) -> Response {
    imageResponse(
      etag: "\"" + file.hash + "\"", format: format, request: request, byteCount: file.byteCount
    ) { Self.streamed(file: file.path, byteCount: file.byteCount, pacing: pacing) }
  }

  private func imageResponse(
    etag: String, format: ImageFormat, request: Request, byteCount: Int,
    body: () -> ResponseBody
  ) -> Response {
    var headers = HTTPFields()
    headers[.eTag] = etag
    headers[.cacheControl] = currentFolder.config.serve.cacheControl
    if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = Self.mimeType(format)
    headers[.contentLength] = String(byteCount)
    return Response(status: .ok, headers: headers, body: body())
  }

  /// The bytes of a response body per write: a client that reads slowly holds about one
  /// chunk and the channel's write buffer, not a copy of the whole output (each write waits
  /// until the connection has taken the one before, ``BodyPacing``; the writes wait while
  /// the socket's buffer is full, and ``ConnectionGate`` closes a connection that stays full
  /// past `write-timeout`).
  static let chunk = 64 * 1024

  /// `bytes` (shared, not copied) written a chunk at a time.
  static func streamed(_ bytes: [UInt8], pacing: BodyPacing) -> ResponseBody {
    guard bytes.count > chunk else { return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)) }
    return ResponseBody(contentLength: bytes.count) { writer in
      var start = 0
      while start < bytes.count {
        let end = min(start + chunk, bytes.count)
        try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
        try await pacing.taken()
        start = end
      }
      try await writer.finish(nil)
    }
  }

  /// A cache file written a chunk at a time, read as it is sent.
  static func streamed(file path: String, byteCount: Int, pacing: BodyPacing)
    -> ResponseBody
  {
    ResponseBody(contentLength: byteCount) { writer in
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CocoaError(.fileReadNoSuchFile)
      }
      defer { try? handle.close() }
      while let data = try handle.read(upToCount: chunk), !data.isEmpty {
        try await writer.write(ByteBuffer(bytes: data))
        try await pacing.taken()
      }
      try await writer.finish(nil)
    }
  }

  /// Whether an `If-None-Match` value names `etag` (or is `*`).
  static func matches(_ header: String, _ etag: String) -> Bool {
    header.split(separator: ",").contains { part in
      let tag = part.trimmingCharacters(in: .whitespaces)
      return tag == "*" || tag == etag || tag == "W/" + etag
    }
  }

  static func mimeType(_ format: ImageFormat) -> String {
    switch format {
    case .png: "image/png"
    case .jpeg: "image/jpeg"
    case .webp: "image/webp"
    case .heif: "image/heif"
    case .avif: "image/avif"
    }
  }

  static func text(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:])
    -> Response
  {
    var headers = headers
    headers[.contentType] = "text/plain; charset=utf-8"
    return body(Array((message + "\n").utf8), status: status, headers: headers)
  }

  static func body(_ bytes: [UInt8], status: HTTPResponse.Status, headers: HTTPFields) -> Response {
    var headers = headers
    headers[.contentLength] = String(bytes.count)
    return Response(
      status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
