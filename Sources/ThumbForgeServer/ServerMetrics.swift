internal import CoreMetrics
internal import Prometheus

/// The server's metrics, through swift-metrics with a Prometheus registry of the server's
/// own (no process-wide bootstrap, so several servers can run in one process, as in tests).
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let renderSeconds: CoreMetrics.Timer
  private let cacheSize: CoreMetrics.Gauge
  private let cacheEntries: CoreMetrics.Gauge
  private let queueDepth: CoreMetrics.Gauge
  private let inFlight: CoreMetrics.Gauge
  private let reserved: CoreMetrics.Gauge
  private let budget: CoreMetrics.Gauge
  private let cancelledRenders: CoreMetrics.Counter
  private let openConnections: CoreMetrics.Gauge

  init() {
    factory = PrometheusMetricsFactory(registry: registry)
    renderSeconds = CoreMetrics.Timer(label: "thumbforge_render_seconds", factory: factory)
    cacheSize = CoreMetrics.Gauge(label: "thumbforge_cache_bytes", factory: factory)
    cacheEntries = CoreMetrics.Gauge(label: "thumbforge_cache_entries", factory: factory)
    queueDepth = CoreMetrics.Gauge(label: "thumbforge_render_queue_depth", factory: factory)
    inFlight = CoreMetrics.Gauge(label: "thumbforge_renders_in_flight", factory: factory)
    reserved = CoreMetrics.Gauge(
      label: "thumbforge_render_memory_reserved_bytes", factory: factory)
    budget = CoreMetrics.Gauge(label: "thumbforge_render_memory_budget_bytes", factory: factory)
    cancelledRenders = CoreMetrics.Counter(
      label: "thumbforge_renders_cancelled_total", factory: factory)
    openConnections = CoreMetrics.Gauge(label: "thumbforge_connections_open", factory: factory)
  }

  /// Counts a render stopped (or dropped from the queue) because no request waited for it.
  func cancelled() {
    cancelledRenders.increment()
  }

  /// Counts a finished request by status and by how its body was obtained.
  func request(status: Int, outcome: String) {
    CoreMetrics.Counter(
      label: "thumbforge_requests_total",
      dimensions: [("status", String(status)), ("outcome", outcome)], factory: factory
    ).increment()
  }

  func rendered(nanoseconds: Int64) {
    renderSeconds.recordNanoseconds(nanoseconds)
  }

  func update(
    cache: (bytes: Int, entries: Int), queue: (waiting: Int, running: Int, reserved: Int),
    budget: Int, connections: Int
  ) {
    openConnections.record(connections)
    cacheSize.record(cache.bytes)
    cacheEntries.record(cache.entries)
    queueDepth.record(queue.waiting)
    inFlight.record(queue.running)
    reserved.record(queue.reserved)
    self.budget.record(budget)
  }

  /// The Prometheus text exposition of every metric.
  func exposition() -> [UInt8] {
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    return buffer
  }
}
