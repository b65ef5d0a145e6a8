internal import Foundation
internal import Hummingbird
package import Logging
internal import Synchronization
package import ThumbForge
internal import ThumbForgeConfig
internal import ThumbForgeRendering
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

  /// The preview page (`serve.preview`); 404 when it is off.
  func previewPage() throws(ServeFailure) -> Response {
    guard preview else { throw ServeFailure.notFound }
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

  /// The image `path` names (parsed, its signature accepted by ``ImageRoute``); how its body
  /// was obtained (`catalog`, `hit`, `miss`, `coalesced`) goes to `context`'s outcome.
  /// Throws a ``ServeFailure`` for any other answer.
  func image(_ request: Request, path: ServePath, context: ServeContext) async throws -> Response {
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
    case .failure(let error): throw ServeFailure(error)
    }
    let (item, outcome) = try await output(resolved, in: folder)
    context.outcome.record(outcome)
    let pacing = BodyPacing(eventLoop: context.eventLoop)
    var response =
      switch item {
      case .memory(let item):
        imageResponse(etag: item.etag, format: resolved.format, byteCount: item.bytes.count) {
          Self.streamed(item.bytes, pacing: pacing)
        }
      case .file(let file):
        imageResponse(
          etag: "\"" + file.hash + "\"", format: resolved.format, byteCount: file.byteCount
        ) { Self.streamed(file: file.path, byteCount: file.byteCount, pacing: pacing) }
      }
    if negotiated { response.headers[.vary] = "Accept" }
    return response
  }

  /// The placeholder `path` names, as JSON (``OnDemandFolder/Placeholder/json``) with a strong
  /// ETag and the images' `Cache-Control`; a ``ServeFailure`` when there is none.
  func placeholder(_ path: PlaceholderPath) throws -> Response {
    let placeholder: OnDemandFolder.Placeholder
    do {
      placeholder = try currentFolder.placeholder(asset: path.asset, recipe: path.recipe)
    } catch {
      throw ServeFailure(error)
    }
    let body = Array(placeholder.json.utf8)
    var headers = HTTPFields()
    headers[.eTag] = "\"" + placeholder.etag + "\""
    headers[.cacheControl] = currentFolder.config.serve.cacheControl
    headers[.contentType] = "application/json"
    return Self.body(body, status: .ok, headers: headers)
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

  /// Where an image's bytes are: in memory, or (large results of the cache) in a file.
  private enum Output {
    case memory(HotOutputs.Item)
    case file(ResultCache.File)
  }

  /// The output of a resolved request, from memory, the catalog, the result cache, or
  /// rendered; and how it was obtained.
  private func output(_ resolved: OnDemandRequest, in folder: OnDemandFolder) async throws
    -> (Output, String)
  {
    if let item = hot.item(for: resolved.cacheKey) { return (.memory(item), "hit") }
    if let (bytes, hash) = folder.catalogBytes(for: resolved) {
      return (.memory(remember(bytes, hash: hash, for: resolved.cacheKey)), "catalog")
    }
    if let file = cache.file(for: resolved.cacheKey) {
      // Large results are sent from the file, never held whole per request.
      guard file.byteCount <= HotOutputs.largestItem,
        let data = FileManager.default.contents(atPath: file.path)
      else { return (.file(file), "hit") }
      return (.memory(remember(Array(data), hash: file.hash, for: resolved.cacheKey)), "hit")
    }
    guard !draining.load(ordering: .relaxed) else { throw ServeFailure.draining }
    do {
      let (output, outcome) = try await coordinator.output(
        for: resolved.cacheKey, need: resolved.estimatedBytes,
        timeout: .seconds(folder.config.serve.timeout)
      ) { [self] in render(resolved, in: folder) }
      return (
        .memory(remember(output.bytes, hash: output.hash, for: resolved.cacheKey)), outcome.rawValue
      )
    } catch let refusal as RenderCoordinator.Refusal {
      throw ServeFailure(refusal, asset: resolved.asset)
    } catch let error as OnDemandError {
      throw ServeFailure(error)
    } catch {
      throw ServeFailure.internalError(error)
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

  /// Keeps an output in memory with its ETag (`hash`: the SHA-256 of its bytes, hex).
  private func remember(_ bytes: [UInt8], hash: String, for key: String) -> HotOutputs.Item {
    let item = HotOutputs.Item(bytes: bytes, etag: "\"" + hash + "\"")
    hot.store(item, for: key)
    return item
  }

  /// A 200 with the image's headers (`ETag`, `Cache-Control`, type and length) and `body`;
  /// ``ConditionalGet`` turns it into a 304 when the client has it.
  private func imageResponse(
    etag: String, format: ImageFormat, byteCount: Int, body: () -> ResponseBody
  ) -> Response {
    var headers = HTTPFields()
    headers[.eTag] = etag
    headers[.cacheControl] = currentFolder.config.serve.cacheControl
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
