internal import Dispatch
internal import Synchronization
internal import ThumbForge

/// Runs renders off the server's event loops: at most `workers` at a time, at most
/// `queueLimit` more waiting (a request beyond that is refused at once, 429), and requests
/// for an output already being rendered wait for that render instead of starting another.
/// A request that waits longer than `timeout` is answered 503; its render goes on and its
/// results still reach the cache.
final class RenderCoordinator: Sendable {
  let workers: Int
  let queueLimit: Int
  private let state = Mutex(State())
  /// Renders started since launch.
  let renderCount = Atomic<Int>(0)

  private struct State {
    var running = 0
    var waiting: [Pending] = []
    /// Waiters of each output being rendered, by cache key.
    var inFlight: [String: [Waiter]] = [:]
    var nextWaiter = 0
  }

  private struct Pending {
    let key: String
    let work: @Sendable () -> Result<[RenderedOutput], OnDemandError>
  }

  private struct Waiter {
    let id: Int
    let continuation: CheckedContinuation<RenderedOutput, any Error>
  }

  /// How a request's output was obtained.
  enum Outcome: String, Sendable {
    case rendered = "miss"
    case coalesced
  }

  /// Why a request got no output from the coordinator.
  enum Refusal: Error, Equatable {
    /// Every worker is busy and the queue is full (429).
    case queueFull
    /// The render took longer than the request may wait (503).
    case timedOut
  }

  init(workers: Int, queueLimit: Int) {
    self.workers = max(1, workers)
    self.queueLimit = max(0, queueLimit)
  }

  /// Renders waiting for a worker, and renders running.
  var depth: (waiting: Int, running: Int) {
    state.withLock { ($0.waiting.count, $0.running) }
  }

  /// The output of cache key `key`: from a render already under way for it, or from
  /// `work`, which renders the whole job and returns every output it made.
  func output(
    for key: String, timeout: Duration,
    work: @escaping @Sendable () -> Result<[RenderedOutput], OnDemandError>
  ) async throws -> (RenderedOutput, Outcome) {
    let (id, joined) = try state.withLock { state throws(Refusal) -> (Int, Bool) in
      state.nextWaiter += 1
      if state.inFlight[key] != nil { return (state.nextWaiter, true) }
      guard state.running < workers || state.waiting.count < queueLimit else {
        throw .queueFull
      }
      return (state.nextWaiter, false)
    }
    let output = try await withCheckedThrowingContinuation { continuation in
      let start = state.withLock { state -> Bool in
        let waiter = Waiter(id: id, continuation: continuation)
        if state.inFlight[key] != nil {
          state.inFlight[key]!.append(waiter)
          return false
        }
        state.inFlight[key] = [waiter]
        if state.running < workers {
          state.running += 1
          return true
        }
        state.waiting.append(Pending(key: key, work: work))
        return false
      }
      if start { launch(Pending(key: key, work: work)) }
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
        resume(waiter: id, of: key, with: .failure(Refusal.timedOut))
      }
    }
    return (output, joined ? .coalesced : .rendered)
  }

  private func launch(_ pending: Pending) {
    renderCount.add(1, ordering: .relaxed)
    DispatchQueue.global().async { [self] in
      let result = pending.work()
      finish(pending.key, result)
    }
  }

  private func finish(_ key: String, _ result: Result<[RenderedOutput], OnDemandError>) {
    let (waiters, next) = state.withLock { state -> ([Waiter], Pending?) in
      let waiters = state.inFlight.removeValue(forKey: key) ?? []
      if state.waiting.isEmpty {
        state.running -= 1
        return (waiters, nil)
      }
      return (waiters, state.waiting.removeFirst())
    }
    if let next { launch(next) }
    let answer: Result<RenderedOutput, any Error> = result.flatMap { outputs in
      guard let output = outputs.first(where: { $0.cacheKey == key }) else {
        return .failure(OnDemandError.undecodable("the render did not make the requested output"))
      }
      return .success(output)
    }.mapError { $0 as any Error }
    for waiter in waiters { waiter.continuation.resume(with: answer) }
  }

  /// Answers one waiter early (its time is up), if it is still waiting.
  private func resume(
    waiter id: Int, of key: String, with result: Result<RenderedOutput, any Error>
  ) {
    let waiter = state.withLock { state -> Waiter? in
      guard let index = state.inFlight[key]?.firstIndex(where: { $0.id == id }) else { return nil }
      return state.inFlight[key]!.remove(at: index)
    }
    waiter?.continuation.resume(with: result)
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
