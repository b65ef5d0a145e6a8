public import Foundation

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

extension ConfigError {
  /// The absolute path of the file the error is in, when it names one that exists: `file`
  /// is a configuration file's name (found in `folder`, or the `explicit` one), or a path.
  /// Nil for errors about an option (`--output`) or a folder that is not there.
  public func path(folder: URL, explicit: URL?) -> String? {
    var candidates: [URL] = []
    if file.hasPrefix("/") {
      candidates.append(URL(fileURLWithPath: file))
    } else {
      if let explicit, explicit.lastPathComponent == file { candidates.append(explicit) }
      candidates.append(folder.appendingPathComponent(file))
    }
    var isFolder: ObjCBool = false
    return candidates.map { $0.standardizedFileURL.path }.first {
      FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && !isFolder.boolValue
    }
  }
}
