/// One encoded output, ready to be written.
public struct RenderedFile: Sendable {
  public var output: PlannedOutput
  public var bytes: [UInt8]
  public var hash: String
}

/// The result of rendering (part of) one job.
public struct JobResult: Sendable {
  public var files: [RenderedFile]
  public var problems: [Problem]
}
