internal import Foundation

extension URL {
  /// The path of the file at `relative` inside this folder, joined as text:
  /// `appendingPathComponent` asks the file system whether the result is a folder, one
  /// lookup per call, on paths taken once per master and per output.
  package func filePath(_ relative: String) -> String {
    let base = path
    return base.hasSuffix("/") ? base + relative : base + "/" + relative
  }
}
