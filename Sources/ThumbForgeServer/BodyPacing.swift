internal import NIOCore

/// Holds a large response body's writer to the pace of its connection.
///
/// A body write hands its chunk to the connection's event loop and returns at once while
/// the channel is writable; the channel becomes unwritable only once the event loop has
/// run the writes and more than its write buffer's high mark is pending. A writer that
/// reads its chunks faster than a busy event loop runs them therefore queues chunk after
/// chunk before it hears that the client is slow: under many slow readers (row 7 of
/// `Scripts/attack.sh`), megabytes a connection, and a total that varies from one run to
/// the next. Waiting after each write for a no-op submitted to the same event loop (its tasks
/// run in order) means the write before has reached the channel, so the next write
/// suspends while the client is slow: about one chunk plus the channel's write buffer a
/// connection.
struct BodyPacing: Sendable {
  /// The connection's event loop.
  let eventLoop: any EventLoop

  /// Returns once the connection's event loop has run every task submitted before this
  /// call, among them the write of the last chunk.
  func taken() async throws {
    try await eventLoop.submit {}.get()
  }
}
