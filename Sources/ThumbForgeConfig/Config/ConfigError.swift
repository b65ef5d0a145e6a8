package import Foundation

/// A configuration problem, naming the file, the line and the key.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  package var file: String
  package var line: Int?
  package var key: String
  package var message: String

  package init(file: String, line: Int?, key: String, message: String) {
    self.file = file
    self.line = line
    self.key = key
    self.message = message
  }

  package var description: String {
    let place = line.map { "\(file):\($0)" } ?? file
    return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
  }
}

extension ConfigError {
  /// The absolute path of the file the error is in, when it names one that exists: `file`
  /// is a configuration file's name (found in `folder`, or the `explicit` one), or a path.
  /// Nil for errors about an option (`--output`) or a folder that is not there.
  package func path(folder: URL, explicit: URL?) -> String? {
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
