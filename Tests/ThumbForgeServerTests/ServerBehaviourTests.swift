import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgeRendering
@testable import ThumbForgeServer

@Suite("serve: signatures, coalescing, queue, draining", .timeLimit(.minutes(10)))
struct ServerBehaviourTests {
  /// A 32-byte key (the shortest accepted) of a repeated hex pattern.
  static func key(_ pattern: String) -> String {
    String(repeating: pattern, count: 64 / pattern.count)
  }
  static let keys = ["THUMBFORGE_KEY": key("00ff00ff"), "THUMBFORGE_SALT": "abcd"]

  @Test("signed paths: good signatures pass, bad and unsigned ones are 403; keys rotate")
  func signatures() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let old = try #require(try URLSigner.fromEnvironment(Self.keys))
    let rotated = [
      "THUMBFORGE_KEY": Self.key("1234abcd") + "," + Self.key("00ff00ff"),
      "THUMBFORGE_SALT": "ef,abcd",
    ]
    let new = try #require(try URLSigner.fromEnvironment(rotated))
    let path = "/flag/Flags/Italy@2x.png"
    let (_, app) = try harness.server(environment: rotated)
    try await app.test(.router) { client in
      for (uri, status) in [
        (new.signed(path), HTTPResponse.Status.ok), (old.signed(path), .ok),
        ("/unsafe" + path, .forbidden), ("/AAAA" + path, .forbidden),
        (
          new.signed("/flag/Flags/Austria@2x.png").replacingOccurrences(
            of: "Austria", with: "Italy"), .forbidden
        ),
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == status, "\(uri)")
        }
      }
    }
    // Once the old pair is retired, its signatures stop working.
    let retired = ["THUMBFORGE_KEY": Self.key("1234abcd"), "THUMBFORGE_SALT": "ef"]
    let (_, app2) = try harness.server(environment: retired)
    try await app2.test(.router) { client in
      try await client.execute(uri: old.signed(path), method: .get) { response in
        #expect(response.status == .forbidden)
      }
    }
  }

  @Test("unsigned serving is refused beyond loopback unless allowed")
  func unsignedBinding() throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    #expect(throws: ServeError.self) { try harness.server(host: "0.0.0.0") }
    _ = try harness.server(environment: Self.keys, host: "0.0.0.0")
    var options = ServeOptions(build: BuildOptions(folder: harness.folder))
    options.host = "0.0.0.0"
    options.allowUnsigned = true
    _ = try ServeRunner.makeApplication(options, environment: [:], logger: .init(label: "t"))
  }

  @Test("200 concurrent identical requests: one render, the same bytes for all")
  func coalescing() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (server, app) = try harness.server()
    let uri = "/unsafe/tile/Resorts/les-arcs@3x.webp"
    let bodies = try await app.test(.router) { client in
      try await withThrowingTaskGroup(of: [UInt8].self) { group in
        for _ in 0..<200 {
          group.addTask {
            try await client.execute(uri: uri, method: .get) { response in
              #expect(response.status == .ok)
              return response.bytes
            }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(server.renderCount == 1)
    #expect(Set(bodies).count == 1)
    #expect(bodies.count == 200)
  }

  @Test("a full queue answers 429 with Retry-After")
  func queueFull() async throws {
    // Off the cooperative pool, as memoryBudget: see DedicatedExecutor.
    let executor = DedicatedExecutor("queueFull")
    try await withTaskExecutorPreference(executor) { try await queueFull(on: executor) }
  }

  private func queueFull(on executor: DedicatedExecutor) async throws {
    let harness = try ServerHarness(config: ServerHarness.config + "  queue: 0\n")
    defer { harness.remove() }
    let (server, app) = try harness.server(workers: 1)
    // The only worker is held by a render that waits for the test, so the request below
    // meets a busy worker however fast or slow this machine renders. (Waiting for a real
    // render to be under way raced with it: a render that ended before the wait looked
    // left the test waiting forever.)
    let hold = HeldRender()
    let held = Task(executorPreference: executor) {
      try await server.coordinator.output(for: "held", need: 0, timeout: .seconds(120)) {
        hold.work()
      }
    }
    defer { hold.release() }
    let deadline = ContinuousClock.now + .seconds(30)
    while server.coordinator.depth.running == 0 {
      try #require(ContinuousClock.now < deadline, "the held render never started")
      try await Task.sleep(for: .milliseconds(2))
    }
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@1x.png", method: .get) { response in
        #expect(response.status == .tooManyRequests)
        #expect(response.headers[.retryAfter] == "1")
      }
      hold.release()
      // The held render made no output, so its one waiter is told so…
      await #expect(throws: OnDemandError.self) { _ = try await held.value }
      // …and the worker is free again: the same request now renders.
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@1x.png", method: .get) { response in
        #expect(response.status == .ok)
      }
    }
  }

  @Test("draining: renders are refused with 503, cached outputs still served, /readyz 503")
  func draining() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (server, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) {
        #expect($0.status == .ok)
      }
      server.startDraining()
      try await client.execute(uri: "/readyz", method: .get) {
        #expect($0.status == .serviceUnavailable)
      }
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) {
        #expect($0.status == .ok)  // from the cache
      }
      try await client.execute(uri: "/unsafe/flag/Flags/Austria@2x.png", method: .get) {
        #expect($0.status == .serviceUnavailable)
      }
    }
  }

  @Test("metrics in Prometheus text")
  func metrics() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) { _ in }
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) { _ in }
      try await client.execute(uri: "/metrics", method: .get) { response in
        let text = response.text
        #expect(text.contains("thumbforge_requests_total{status=\"200\",outcome=\"miss\"} 1"))
        #expect(text.contains("thumbforge_requests_total{status=\"200\",outcome=\"hit\"} 1"))
        #expect(text.contains("thumbforge_render_seconds"))
        #expect(text.contains("thumbforge_cache_bytes"))
      }
    }
  }

  @Test("symbolic links leaving the folder are not assets")
  func symlinkOutside() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let outside = harness.root.appendingPathComponent("secret@2x.png")
    try FileManager.default.copyItem(
      at: harness.folder.appendingPathComponent("Flags/Italy.svg"),
      to: harness.root.appendingPathComponent("Secret.svg"))
    try FileManager.default.createSymbolicLink(
      at: harness.folder.appendingPathComponent("Flags/Secret.svg"),
      withDestinationURL: harness.root.appendingPathComponent("Secret.svg"))
    _ = outside
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Secret@2x.png", method: .get) {
        #expect($0.status == .notFound)
      }
    }
  }

  @Test(
    "a render that outlasts the timeout is answered 503 and cancelled; the key renders afresh")
  func coordinatorTimeout() async throws {
    let coordinator = RenderCoordinator(workers: 1, queueLimit: 1)
    let key = String(repeating: "a", count: 64)
    let hold = HeldRender()
    await #expect(throws: RenderCoordinator.Refusal.timedOut) {
      _ = try await coordinator.output(for: key, need: 0, timeout: .milliseconds(50)) {
        hold.work(making: [Self.output(key, bytes: [1])])
      }
    }
    // Nobody waits for it any more: its cancellation was set (a libvips render would stop).
    #expect(coordinator.cancelledCount.load(ordering: .relaxed) == 1)
    #expect(hold.sawCancellation)
    hold.release()
    try await Self.waitUntilIdle(coordinator, "the cancelled render never ended")
    #expect(hold.finished, "the cancelled render's work did not return")
    #expect(coordinator.depth.reserved == 0)
    // The cancelled render was forgotten: the same key renders afresh, and its output arrives.
    let (output, outcome) = try await coordinator.output(
      for: key, need: 0, timeout: .seconds(30)
    ) { .success([Self.output(key, bytes: [2])]) }
    #expect(output.bytes == [2])
    #expect(outcome == .rendered)
    #expect(coordinator.renderCount.load(ordering: .relaxed) == 2)
  }

  @Test("when one waiter times out, the render goes on for the others, who get its output")
  func coordinatorTimeoutOfOneWaiter() async throws {
    let coordinator = RenderCoordinator(workers: 1, queueLimit: 1)
    let key = String(repeating: "b", count: 64)
    let hold = HeldRender()
    let patient = Task {
      try await coordinator.output(for: key, need: 0, timeout: .seconds(60)) {
        hold.work(making: [Self.output(key, bytes: [7, 7])])
      }
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while coordinator.depth.running == 0 {
      try #require(ContinuousClock.now < deadline, "the render never started")
      try await Task.sleep(for: .milliseconds(2))
    }
    await #expect(throws: RenderCoordinator.Refusal.timedOut) {
      _ = try await coordinator.output(for: key, need: 0, timeout: .milliseconds(50)) {
        .success([])
      }
    }
    // Someone still waits: the render is not cancelled, and its output reaches them.
    #expect(coordinator.cancelledCount.load(ordering: .relaxed) == 0)
    hold.release()
    let (output, outcome) = try await patient.value
    #expect(output.bytes == [7, 7])
    #expect(outcome == .rendered)
    #expect(!hold.sawCancellation)
    #expect(coordinator.renderCount.load(ordering: .relaxed) == 1)
    try await Self.waitUntilIdle(coordinator, "the render never ended")
  }

  /// A rendered output of cache key `key` holding `bytes`.
  static func output(_ key: String, bytes: [UInt8]) -> RenderedOutput {
    RenderedOutput(
      cacheKey: key, bytes: bytes, hash: "", format: .png, pixelSize: PixelSize(width: 1, height: 1)
    )
  }

  /// Waits (at most 30 s) until no render of `coordinator` runs, failing with `message` if
  /// one still does then.
  static func waitUntilIdle(_ coordinator: RenderCoordinator, _ message: Comment) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while coordinator.depth.running > 0 {
      try #require(ContinuousClock.now < deadline, message)
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  @Test("renders start while their estimated memory fits the budget; larger ones get 413")
  func memoryBudget() async throws {
    // The test and its two requests run off the cooperative pool: see DedicatedExecutor.
    let executor = DedicatedExecutor("memoryBudget")
    try await withTaskExecutorPreference(executor) { try await memoryBudget(on: executor) }
  }

  private func memoryBudget(on executor: DedicatedExecutor) async throws {
    let coordinator = RenderCoordinator(workers: 4, queueLimit: 4, memoryBudget: 100)
    await #expect(throws: RenderCoordinator.Refusal.overBudget(need: 101, budget: 100)) {
      _ = try await coordinator.output(for: "huge", need: 101, timeout: .seconds(60)) {
        .success([])
      }
    }
    let first = HeldRender()
    let second = HeldRender()
    let one = Task(executorPreference: executor) {
      try? await coordinator.output(for: "one", need: 60, timeout: .seconds(60)) { first.work() }
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while coordinator.depth.running == 0 {
      try #require(ContinuousClock.now < deadline, "the first render never started")
      try await Task.sleep(for: .milliseconds(2))
    }
    let two = Task(executorPreference: executor) {
      try? await coordinator.output(for: "two", need: 60, timeout: .seconds(60)) { second.work() }
    }
    while coordinator.depth.waiting == 0 {
      try #require(ContinuousClock.now < deadline, "the second render was not queued")
      try await Task.sleep(for: .milliseconds(2))
    }
    // 60 + 60 is over 100: the second waits though a worker is free.
    #expect(coordinator.depth.running == 1)
    #expect(coordinator.depth.reserved == 60)
    first.release()
    while coordinator.depth.waiting > 0 || coordinator.depth.running != 1 {
      try #require(ContinuousClock.now < deadline, "the second render never started")
      try await Task.sleep(for: .milliseconds(2))
    }
    second.release()
    _ = await (one.value, two.value)
    #expect(coordinator.depth.reserved == 0)
  }

  @Test("untrusted folders get the lower pixel limit unless the file sets one")
  func untrustedLimit() throws {
    let untrusted = try ServerHarness(config: ServerHarness.config + "  untrusted-sources: true\n")
    defer { untrusted.remove() }
    // `serving`, not `load`: loading an untrusted folder blocks libvips' untrusted loaders
    // for the whole process, this test process included (Scripts/attack.sh checks that).
    let workspace = OnDemandFolder.serving(
      try Workspace.resolve(BuildOptions(folder: untrusted.folder)))
    #expect(workspace.config.limitInputPixels == ServeSettings.untrustedPixelLimit)
    #expect(workspace.confined)
    let set = try ServerHarness(
      config: "limit-input-pixels: 1000000\n" + ServerHarness.config + "  untrusted-sources: true\n"
    )
    defer { set.remove() }
    #expect(
      OnDemandFolder.serving(try Workspace.resolve(BuildOptions(folder: set.folder)))
        .config.limitInputPixels == 1_000_000
    )
  }

  @Test("an app icon recipe is not served: its icons are in the catalog")
  func appIconNotServed() throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let folder = try OnDemandFolder.load(BuildOptions(folder: harness.folder))
    let asset = try #require(folder.assets.first)
    #expect(throws: OnDemandError.self) {
      try folder.request(asset: asset, recipe: .named("appicon"), scale: 2, format: .png)
    }
    do {
      _ = try folder.request(asset: asset, recipe: .named("appicon"), scale: 2, format: .png)
    } catch {
      #expect(error.status == 404)
      #expect(
        error.message == "'appicon' makes an app icon set, which is in the catalog, not served")
    }
  }

  /// One render path: an output outside the catalog's plan is rendered by the code `build`
  /// uses, so an ad-hoc box gives the bytes a catalog recipe of the same box has, whatever
  /// was asked of the same master before.
  @Test("outputs outside the plan: the catalog recipe's bytes, whatever was asked before")
  func adHocRendersAsBuild() async throws {
    let harness = try ServerHarness(
      config: ServerHarness.config.replacingOccurrences(
        of: "recipes: [variants, fill, tile]", with: "recipes: [variants, fill, tile, wide]"
      ).replacingOccurrences(
        of: "  fill: { size: [390, 120], gravity: attention }",
        with:
          "  fill: { size: [390, 120], gravity: attention }\n  wide: { kind: fill, size: [600, 400] }"
      ) + "  ad-hoc: true\n")
    defer { harness.remove() }
    try harness.build()
    let built = try Data(
      contentsOf: harness.root.appendingPathComponent(
        "Build/Assets.xcassets/Resorts/les-arcs-wide.imageset/les-arcs@2x.jpg"))
    let target = "/unsafe/fill:600x400/Resorts/les-arcs@2x.jpg"
    func fetch(_ uris: [String]) async throws -> [UInt8] {
      try? FileManager.default.removeItem(
        at: harness.root.appendingPathComponent("Build/serve-cache"))
      let (_, app) = try harness.server()
      return try await app.test(.router) { client in
        var last: [UInt8] = []
        for uri in uris {
          last = try await client.execute(uri: uri, method: .get) { response in
            #expect(response.status == .ok, "\(uri)")
            return response.bytes
          }
        }
        return last
      }
    }
    let cold = try await fetch([target])
    let afterOthers = try await fetch([
      "/unsafe/fit:100x100/Resorts/les-arcs@1x.png", "/unsafe/tile/Resorts/les-arcs@1x.jpg", target,
    ])
    #expect(cold == afterOthers)
    #expect(cold == Array(built))
    #expect(try VipsImage.load(bytes: cold).width == 1200)

    // The second render of the same job resizes the master held decoded: the same bytes.
    let folder = try OnDemandFolder.load(BuildOptions(folder: harness.folder))
    let request = try folder.request(
      asset: "Resorts/les-arcs", recipe: .adHoc(.fill, width: 600, height: 400), scale: 2,
      format: .jpeg)
    let decoded = DecodedMasters(capacity: 256 * 1_048_576)
    let first = try folder.render(request, decoded: decoded)
    #expect(decoded.usage.images == 1)
    let again = try folder.render(request, decoded: decoded)
    #expect(decoded.usage.images == 1)
    let wanted = try #require(again.first { $0.cacheKey == request.cacheKey })
    #expect(wanted.bytes == Array(built))
    #expect(first.map(\.bytes) == again.map(\.bytes))
  }
}

/// A render that keeps its worker busy until the test releases it, and makes no output.
final class HeldRender: Sendable {
  private let released = Mutex(false)

  func release() { released.withLock { $0 = true } }

  private let cancelled = Mutex(false)

  /// Whether the render's cancellation was set while it was held.
  var sawCancellation: Bool { cancelled.withLock { $0 } }

  private let done = Mutex(false)

  /// Whether ``work(making:)`` has returned.
  var finished: Bool { done.withLock { $0 } }

  /// Waits until released, then returns `outputs`.
  func work(making outputs: [RenderedOutput] = []) -> Result<[RenderedOutput], OnDemandError> {
    while !released.withLock({ $0 }) {
      if RenderCancellation.current?.isCancelled == true { cancelled.withLock { $0 = true } }
      usleep(1000)
    }
    done.withLock { $0 = true }
    return .success(outputs)
  }
}
