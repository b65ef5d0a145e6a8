/// A configuration problem, naming the file, the line and the key.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var key: String
  public var message: String

  public init(file: String, line: Int?, key: String, message: String) {
    self.file = file
    self.line = line
    self.key = key
    self.message = message
  }

  public var description: String {
    let place = line.map { "\(file):\($0)" } ?? file
    return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
  }
}
