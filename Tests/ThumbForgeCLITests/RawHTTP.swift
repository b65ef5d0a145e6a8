import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Raw HTTP/1.1 over a loopback socket, for tests that must send exactly the bytes they mean
/// (unnormalized `..`, encoded slashes, NUL) or send them slowly. Test code only.
enum RawHTTP {
  /// `SOCK_STREAM`: an enum case in Glibc, a plain `Int32` in Darwin.
  #if canImport(Glibc)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
  #else
    static let streamSocket = SOCK_STREAM
  #endif

  /// A free TCP port on loopback (bound and released; another process could take it first).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, streamSocket, 0)
    defer { close(fd) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// An open connection to `port`.
  static func connect(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, streamSocket, 0)
    var address = loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        #if canImport(Glibc)
          return Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #else
          return Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        #endif
      }
    }
    guard result == 0 else {
      close(fd)
      throw POSIXError(.ECONNREFUSED)
    }
    // A server that stops answering fails the test (a short read) instead of hanging it.
    var limit = timeval(tv_sec: 120, tv_usec: 0)
    for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
      _ = setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
    return fd
  }

  static func send(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
  }

  /// Sends one request with `Connection: close` and returns the status and body.
  static func get(_ target: String, port: Int, method: String = "GET") throws -> (
    status: Int, body: [UInt8]
  ) {
    let fd = try connect(port: port)
    defer { close(fd) }
    send(fd, "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      response += buffer[0..<count]
    }
    let separator = Array("\r\n\r\n".utf8)
    guard let end = response.indices.first(where: { response[$0...].starts(with: separator) }),
      let head = String(bytes: response[..<end], encoding: .utf8),
      let status = Int(head.split(separator: " ").dropFirst().first ?? "")
    else { return (0, []) }
    return (status, Array(response[(end + 4)...]))
  }
}
