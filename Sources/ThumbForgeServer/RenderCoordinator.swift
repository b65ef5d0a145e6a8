internal import Dispatch
internal import Synchronization
internal import ThumbForge
internal import Vips

/// Runs renders off the server's event loops, within two bounds: at most `workers` at a
/// time, and the estimated memory of the running ones (``OnDemandRequest/estimatedBytes``)
/// within `memoryBudget`. Renders that cannot start wait in arrival order, at most
/// `queueLimit` of them (a request beyond that is refused at once, 429); a render larger
/// than the whole budget is refused (413). Requests for an output already being rendered
/// wait for that render instead of starting another.
///
/// A request that waits longer than its timeout, or whose task is cancelled (its client
/// went away), stops waiting; when no request waits for a render any more, the render is
/// cancelled (``RenderCancellation``: libvips stops within a tile) or, not started yet,
/// dropped from the queue.
final class RenderCoordinator: Sendable {
  let workers: Int
  let queueLimit: Int
  let memoryBudget: Int
  private let state = Mutex(State())
  /// Renders started since launch.
  let renderCount = Atomic<Int>(0)
  /// Renders stopped, or dropped before they started, because no request waited for them.
  let cancelledCount = Atomic<Int>(0)

  typealias Work = @Sendable () -> Result<[RenderedOutput], OnDemandError>

  private struct State {
    var running = 0
    /// Estimated bytes of the running renders.
    var reserved = 0
    var waiting: [Pending] = []
    /// The render of each output being made or waiting, by cache key.
    var flights: [String: Flight] = [:]
    var nextWaiter = 0
  }

  private struct Flight {
    var waiters: [Waiter]
    let cancellation: RenderCancellation
  }

  private struct Pending {
    let key: String
    let need: Int
    let work: Work
    /// The render's cancellation, also its identity (a cancelled render's key may get a
    /// new render while it unwinds).
    let cancellation: RenderCancellation
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
    /// Every worker or the memory budget is taken and the queue is full (429).
    case queueFull
    /// The render took longer than the request may wait (503).
    case timedOut
    /// The render alone needs more than the whole memory budget (413).
    case overBudget(need: Int, budget: Int)
  }

  private let onCancel: @Sendable () -> Void

  init(
    workers: Int, queueLimit: Int, memoryBudget: Int = Int.max,
    onCancel: @escaping @Sendable () -> Void = {}
  ) {
    self.workers = max(1, workers)
    self.queueLimit = max(0, queueLimit)
    self.memoryBudget = max(1, memoryBudget)
    self.onCancel = onCancel
  }

  /// Renders waiting, renders running, and the estimated bytes of the running ones.
  var depth: (waiting: Int, running: Int, reserved: Int) {
    state.withLock { ($0.waiting.count, $0.running, $0.reserved) }
  }

  /// The output of cache key `key`: from a render already under way for it, or from
  /// `work`, which renders the whole job (estimated to need `need` bytes at its peak) and
  /// returns every output it made. `work` runs inside the render's ``RenderCancellation``.
  func output(
    for key: String, need: Int, timeout: Duration, work: @escaping Work
  ) async throws -> (RenderedOutput, Outcome) {
    guard need <= memoryBudget else { throw Refusal.overBudget(need: need, budget: memoryBudget) }
    let (id, joined) = try state.withLock { state throws(Refusal) -> (Int, Bool) in
      state.nextWaiter += 1
      if state.flights[key] != nil { return (state.nextWaiter, true) }
      guard canStart(need, state) || state.waiting.count < queueLimit else { throw .queueFull }
      return (state.nextWaiter, false)
    }
    let output = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let start = state.withLock { state -> Pending? in
          let waiter = Waiter(id: id, continuation: continuation)
          if state.flights[key] != nil {
            state.flights[key]!.waiters.append(waiter)
            return nil
          }
          let pending = Pending(
            key: key, need: need, work: work, cancellation: RenderCancellation())
          state.flights[key] = Flight(waiters: [waiter], cancellation: pending.cancellation)
          if state.waiting.isEmpty && canStart(need, state) {
            state.running += 1
            state.reserved += need
            return pending
          }
          state.waiting.append(pending)
          return nil
        }
        if let start { launch(start) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
          leave(waiter: id, of: key, with: Refusal.timedOut)
        }
      }
    } onCancel: {
      leave(waiter: id, of: key, with: CancellationError())
    }
    return (output, joined ? .coalesced : .rendered)
  }

  /// Whether a render of `need` bytes may start now.
  private func canStart(_ need: Int, _ state: State) -> Bool {
    state.running < workers && (state.running == 0 || state.reserved + need <= memoryBudget)
  }

  private func launch(_ pending: Pending) {
    renderCount.add(1, ordering: .relaxed)
    DispatchQueue.global().async { [self] in
      let result = pending.cancellation.run { pending.work() }
      finish(pending, result)
    }
  }

  private func finish(_ done: Pending, _ result: Result<[RenderedOutput], OnDemandError>) {
    let (waiters, next) = state.withLock { state -> ([Waiter], [Pending]) in
      var waiters: [Waiter] = []
      if state.flights[done.key]?.cancellation === done.cancellation {
        waiters = state.flights.removeValue(forKey: done.key)!.waiters
      }
      state.running -= 1
      state.reserved -= done.need
      return (waiters, startWaiting(&state))
    }
    for pending in next { launch(pending) }
    let answer: Result<RenderedOutput, any Error> = result.flatMap { outputs in
      guard let output = outputs.first(where: { $0.cacheKey == done.key }) else {
        return .failure(OnDemandError.undecodable("the render did not make the requested output"))
      }
      return .success(output)
    }.mapError { $0 as any Error }
    for waiter in waiters { waiter.continuation.resume(with: answer) }
  }

  /// Takes the renders that may start now off the queue, in arrival order.
  private func startWaiting(_ state: inout State) -> [Pending] {
    var started: [Pending] = []
    while let next = state.waiting.first, canStart(next.need, state) {
      state.waiting.removeFirst()
      state.running += 1
      state.reserved += next.need
      started.append(next)
    }
    return started
  }

  /// Answers one waiter early (its time is up, or its client left), if it is still
  /// waiting; a render nobody waits for any more is cancelled, or dropped if not started.
  private func leave(waiter id: Int, of key: String, with error: any Error) {
    let (waiter, cancelled) = state.withLock { state -> (Waiter?, RenderCancellation?) in
      guard let index = state.flights[key]?.waiters.firstIndex(where: { $0.id == id }) else {
        return (nil, nil)
      }
      let waiter = state.flights[key]!.waiters.remove(at: index)
      guard state.flights[key]!.waiters.isEmpty else { return (waiter, nil) }
      if let queued = state.waiting.firstIndex(where: { $0.key == key }) {
        state.waiting.remove(at: queued)
        state.flights[key] = nil
        cancelledCount.add(1, ordering: .relaxed)
        onCancel()
        return (waiter, nil)
      }
      // Running: stopped, and forgotten, so that a new request renders afresh.
      return (waiter, state.flights.removeValue(forKey: key)!.cancellation)
    }
    if let cancelled {
      cancelled.cancel()
      cancelledCount.add(1, ordering: .relaxed)
      onCancel()
    }
    waiter?.continuation.resume(throwing: error)
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
