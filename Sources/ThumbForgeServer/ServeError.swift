/// Why `serve` cannot start.
public struct ServeError: Error, Sendable {
  public var message: String
}
