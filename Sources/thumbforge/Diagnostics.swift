import ArgumentParser
import Foundation
import ThumbForge

/// How errors and warnings are written: `text` (`error: Photos/Lake.jpg: …`) or `xcode`
/// (`/abs/Photos/Lake.jpg:1:1: error: …`, which Xcode shows in the issue navigator and makes
/// clickable from a Run Script build phase). `auto` is `xcode` when Xcode runs the tool.
enum DiagnosticStyle: String, ExpressibleByArgument, CaseIterable, Sendable {
  case auto, text, xcode

  /// Environment variables Xcode sets for every build phase script (and that a terminal
  /// does not have).
  static let xcodeVariables = ["XCODE_VERSION_ACTUAL", "XCODE_PRODUCT_BUILD_VERSION"]

  /// `auto` resolved against `environment`.
  func resolved(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> DiagnosticStyle
  {
    guard self == .auto else { return self }
    let underXcode = Self.xcodeVariables.contains { !(environment[$0] ?? "").isEmpty }
    return underXcode ? .xcode : .text
  }
}

/// Where the diagnostics of this process go and how they look. Set once, by the command,
/// before anything is printed.
enum Diagnostics {
  nonisolated(unsafe) static var style: DiagnosticStyle = DiagnosticStyle.auto.resolved()
  /// The asset folder and the catalog, to make the relative paths of problems absolute.
  nonisolated(unsafe) static var folder: URL?
  nonisolated(unsafe) static var catalog: URL?

  static var isXcode: Bool { style == .xcode }

  /// `path` (absolute, or relative to the asset folder or the catalog) made absolute: the
  /// asset folder's file when it exists there, else the catalog's, else the asset folder's.
  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let candidates = [folder, catalog].compactMap { $0?.appendingPathComponent(path).path }
    return candidates.first { FileManager.default.fileExists(atPath: $0) }
      ?? candidates.first ?? path
  }

  /// An Xcode diagnostic line: `/abs/path:line:column: error: message`.
  static func xcodeLine(
    _ severity: String, path: String, line: Int? = nil, column: Int? = nil, _ message: String
  ) -> String {
    "\(absolute(path)):\(line ?? 1):\(column ?? 1): \(severity): \(message)"
  }
}
