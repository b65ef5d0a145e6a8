internal import NIOCore
internal import ServiceLifecycle

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listener (the server, or the `--metrics-port` one) whose start-up failures name its
/// address: NIO's bind error alone (`bind(descriptor:ptr:bytes:): Address already in use
/// (errno: 98)`) does not say which port was taken.
struct NamedListener<Wrapped: Service>: Service {
  let wrapped: Wrapped
  let host: String
  let port: Int
  /// What the listener is for, when not the server itself (`metrics`).
  var role: String? = nil

  func run() async throws {
    do {
      try await wrapped.run()
    } catch let error as IOError {
      throw ServeError(message: message(Self.reason(errno: error.errnoCode)))
    } catch let error as SocketAddressError {
      throw ServeError(message: message("\(error)"))
    }
  }

  private func message(_ reason: String) -> String {
    "cannot listen on \(host):\(port)\(role.map { " (\($0))" } ?? ""): \(reason)"
  }

  /// The failure in the user's words.
  static func reason(errno code: CInt) -> String {
    switch code {
    case EADDRINUSE: "the port is already in use (another server? choose another port)"
    case EADDRNOTAVAIL: "this machine has no such address"
    case EACCES: "permission denied (ports below 1024 need privileges)"
    default: String(cString: strerror(code)).lowercased()
    }
  }
}
