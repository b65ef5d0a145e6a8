package import ThumbForgePlanning

/// Progress of a run, for the CLI to display. Nothing below the CLI prints.
package enum BuildEvent: Sendable {
  /// The plan is made: `jobs` sources need rendering, `outputs` files in all.
  case started(jobs: Int, outputs: Int)
  /// One source finished (`done` of `total`).
  case jobFinished(asset: String, done: Int, total: Int)
  /// A file could not be used or rendered.
  case problem(Problem)
  /// Something was made with a caveat, or left out.
  case warning(BuildWarning)
  /// A file of the folder is not a master (and why): it is not built.
  case note(Problem)
  /// A stage of the run ended (for `--timings`).
  case phase(PhaseTime)
}
