import Foundation
import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import ThumbForgePlanning

/// Prints a ``BuildPlan`` for `--dry-run`.
enum PlanPrinter {
  static func text(_ plan: BuildPlan) -> String {
    var lines: [String] = []
    for job in plan.jobs {
      lines.append(
        "\(job.source.qualifiedName) (\(job.source.masters.map(\.path).joined(separator: ", ")))")
      for set in job.imageSets {
        lines.append("  \(set.folder)  [\(set.recipe.name)]")
        for output in set.outputs {
          // A carried file's pixels are not probed: it is copied as it is.
          let size = output.pixelSize.width == 0 ? "as it is" : "\(output.pixelSize)"
          lines.append(
            "    \(output.fileName)  \(size)  \(output.mode.rawValue) from \(output.master)")
        }
        for skipped in set.skipped { lines.append("    skipped \(skipped)") }
        for warning in set.warnings { lines.append("    warning \(warning)") }
      }
    }
    for problem in plan.problems { lines.append("error: \(problem)") }
    lines.append(
      "\(counted(plan.jobs.count, "source")), \(counted(plan.outputCount, "output"))")
    return lines.joined(separator: "\n") + "\n"
  }

  struct JSONPlan: Encodable {
    struct Set: Encodable {
      var asset: String
      var recipe: String
      var folder: String
      var outputs: [PlannedOutput]
      var skipped: [String]
      var warnings: [String]
    }
    var imageSets: [Set]
    var problems: [Problem]
  }

  static func json(_ plan: BuildPlan) -> String {
    let sets = plan.jobs.flatMap { job in
      job.imageSets.map {
        JSONPlan.Set(
          asset: job.source.qualifiedName, recipe: $0.recipe.name, folder: $0.folder,
          outputs: $0.outputs,
          skipped: $0.skipped, warnings: $0.warnings)
      }
    }
    return ReportPrinter.json(JSONPlan(imageSets: sets, problems: plan.problems)) + "\n"
  }
}
