/// One encoded output, ready to be written.
struct RenderedFile: Sendable {
  var output: PlannedOutput
  var bytes: [UInt8]
  var hash: String
}
