internal import Prometheus
internal import Synchronization

/// The server's metrics, in a Prometheus registry of the server's own (no process-wide
/// bootstrap, so several servers can run in one process, as in tests). Every metric is made
/// through the registry with its help text, so `/metrics` has a `# HELP` and a `# TYPE` line
/// for each (swift-metrics' factory API cannot pass help text).
final class ServerMetrics: Sendable {
  let registry: PrometheusCollectorRegistry
  private let renderSeconds: DurationHistogram
  private let cacheSize: Gauge
  private let cacheEntries: Gauge
  private let queueDepth: Gauge
  private let inFlight: Gauge
  private let reserved: Gauge
  private let budget: Gauge
  private let cancelledRenders: Counter
  private let openConnections: Gauge
  /// `thumbforge_requests_total`'s counter per status and outcome, once made: a request
  /// looks its counter up here, without the registry's name, label and help checks.
  private let requestCounters = Mutex<[RequestKey: Counter]>([:])

  private struct RequestKey: Hashable {
    var status: Int
    var outcome: String
  }

  /// The help text of every metric, by name (one place, so a name always has one text).
  static let help: [String: String] = [
    "thumbforge_requests_total":
      "Requests answered, by HTTP status and by how the body was obtained (catalog, hit, miss, coalesced, or - for none).",
    "thumbforge_render_seconds": "Time taken by each render (one per source job).",
    "thumbforge_cache_bytes": "Bytes held by the on-disk result cache.",
    "thumbforge_cache_entries": "Files held by the on-disk result cache.",
    "thumbforge_render_queue_depth": "Renders waiting for a worker.",
    "thumbforge_renders_in_flight": "Renders running now.",
    "thumbforge_render_memory_reserved_bytes":
      "Memory reserved by the renders running now (their estimated cost).",
    "thumbforge_render_memory_budget_bytes":
      "The memory budget renders are admitted against (serve.memory-budget).",
    "thumbforge_renders_cancelled_total":
      "Renders stopped, or dropped from the queue, because no request waited for them any more.",
    "thumbforge_connections_open": "HTTP connections open now.",
  ]

  init() {
    let registry = PrometheusCollectorRegistry()
    self.registry = registry
    func gauge(_ name: String) -> Gauge { registry.makeGauge(descriptor: Self.descriptor(name)) }
    renderSeconds = registry.makeDurationHistogram(
      descriptor: Self.descriptor("thumbforge_render_seconds"),
      buckets: PrometheusMetricsFactory().defaultDurationHistogramBuckets)
    cacheSize = gauge("thumbforge_cache_bytes")
    cacheEntries = gauge("thumbforge_cache_entries")
    queueDepth = gauge("thumbforge_render_queue_depth")
    inFlight = gauge("thumbforge_renders_in_flight")
    reserved = gauge("thumbforge_render_memory_reserved_bytes")
    budget = gauge("thumbforge_render_memory_budget_bytes")
    cancelledRenders = registry.makeCounter(
      descriptor: Self.descriptor("thumbforge_renders_cancelled_total"))
    openConnections = gauge("thumbforge_connections_open")
  }

  /// Counts a render stopped (or dropped from the queue) because no request waited for it.
  func cancelled() {
    cancelledRenders.increment()
  }

  /// A metric's name (whole, as exposed) with its help text.
  private static func descriptor(_ name: String) -> MetricNameDescriptor {
    MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name]!)
  }

  /// Counts a finished request by status and by how its body was obtained.
  func request(status: Int, outcome: String) {
    let key = RequestKey(status: status, outcome: outcome)
    let counter = requestCounters.withLock { counters in
      if let counter = counters[key] { return counter }
      let counter = registry.makeCounter(
        descriptor: Self.descriptor("thumbforge_requests_total"),
        labels: [("status", String(status)), ("outcome", outcome)])
      counters[key] = counter
      return counter
    }
    counter.increment()
  }

  func rendered(nanoseconds: Int64) {
    renderSeconds.recordNanoseconds(nanoseconds)
  }

  func update(
    cache: (bytes: Int, entries: Int), queue: (waiting: Int, running: Int, reserved: Int),
    budget: Int, connections: Int
  ) {
    openConnections.set(Int64(connections))
    cacheSize.set(Int64(cache.bytes))
    cacheEntries.set(Int64(cache.entries))
    queueDepth.set(Int64(queue.waiting))
    inFlight.set(Int64(queue.running))
    reserved.set(Int64(queue.reserved))
    self.budget.set(Int64(budget))
  }

  /// The Prometheus text exposition of every metric.
  func exposition() -> [UInt8] {
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    return buffer
  }
}
