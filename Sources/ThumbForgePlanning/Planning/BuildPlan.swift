/// The whole build: values only, printable with `--dry-run`.
package struct BuildPlan: Sendable {
  package var jobs: [Job]
  package var problems: [Problem]

  package init(jobs: [Job], problems: [Problem]) {
    self.jobs = jobs
    self.problems = problems
  }

  /// Every planned output count.
  package var outputCount: Int {
    jobs.reduce(0) { $0 + $1.imageSets.reduce(0) { $0 + $1.outputs.count } }
  }
}
