package import ThumbForgePlanning

/// One encoded output, ready to be written.
package struct RenderedFile: Sendable {
  package var output: PlannedOutput
  package var bytes: [UInt8]
  package var hash: String
}
