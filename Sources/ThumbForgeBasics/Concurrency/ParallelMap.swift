internal import Foundation

/// Maps an array on every core, in contiguous chunks, keeping the order; each chunk gets its
/// own `State` (e.g. a reusable encoder). For pure work of many small items, like planning.
///
/// `perChunk` is the fewest items worth a chunk of their own: below it, handing work to
/// another thread costs more than it saves (256 for tiny items, like one stamp
/// comparison; a handful for larger items, like a job's plan).
package enum ParallelMap {
  package static func map<Item: Sendable, Result: Sendable, State>(
    _ items: [Item], perChunk: Int = 256,
    _ transform: @escaping @Sendable (inout State, Item) -> Result,
    makingState makeState: @escaping @Sendable () -> State
  ) -> [Result] {
    let chunks = chunkCount(items.count, perChunk: perChunk)
    if chunks <= 1 {
      var state = makeState()
      return items.map { transform(&state, $0) }
    }
    let size = (items.count + chunks - 1) / chunks
    var results = [Result?](repeating: nil, count: items.count)
    results.withUnsafeMutableBufferPointer { buffer in
      // Each chunk writes only its own slots of the buffer.
      nonisolated(unsafe) let output = buffer
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        var state = makeState()
        for index in (chunk * size)..<min(items.count, (chunk + 1) * size) {
          output[index] = transform(&state, items[index])
        }
      }
    }
    return results.map { $0! }
  }

  /// Splits `0..<count` into one contiguous range per core (one range when there are few
  /// items) and runs `body` on each concurrently; the results are in range order.
  package static func chunked<Result: Sendable>(
    count: Int, perChunk: Int = 256, _ body: @escaping @Sendable (Range<Int>) -> Result
  ) -> [Result] {
    let chunks = chunkCount(count, perChunk: perChunk)
    if chunks <= 1 { return [body(0..<count)] }
    let size = (count + chunks - 1) / chunks
    var results = [Result?](repeating: nil, count: chunks)
    results.withUnsafeMutableBufferPointer { buffer in
      // Each chunk writes only its own slot.
      nonisolated(unsafe) let output = buffer
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        output[chunk] = body((chunk * size)..<min(count, (chunk + 1) * size))
      }
    }
    return results.map { $0! }
  }

  /// One chunk per `perChunk` items begun, at most one per core.
  static func chunkCount(_ count: Int, perChunk: Int) -> Int {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    return min(count / max(1, perChunk) + 1, cores)
  }
}
