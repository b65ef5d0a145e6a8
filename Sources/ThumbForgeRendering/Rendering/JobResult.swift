package import ThumbForgePlanning

/// The result of rendering (part of) one job.
package struct JobResult: Sendable {
  package var files: [RenderedFile]
  package var problems: [Problem]
}
