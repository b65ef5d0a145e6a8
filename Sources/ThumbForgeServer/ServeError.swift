/// Why `serve` cannot start.
package struct ServeError: Error, Sendable {
  package var message: String
}
