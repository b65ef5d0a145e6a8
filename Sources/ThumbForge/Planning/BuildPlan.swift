/// The whole build: values only, printable with `--dry-run`.
public struct BuildPlan: Sendable {
  public var jobs: [Job]
  public var problems: [Problem]

  public init(jobs: [Job], problems: [Problem]) {
    self.jobs = jobs
    self.problems = problems
  }

  /// Every planned output count.
  public var outputCount: Int {
    jobs.reduce(0) { $0 + $1.imageSets.reduce(0) { $0 + $1.outputs.count } }
  }
}
