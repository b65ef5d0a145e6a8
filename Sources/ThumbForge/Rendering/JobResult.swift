/// The result of rendering (part of) one job.
struct JobResult: Sendable {
  var files: [RenderedFile]
  var problems: [Problem]
}
