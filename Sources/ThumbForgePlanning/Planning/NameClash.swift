/// Two assets whose imagesets would have one name (Xcode looks images up by name, so one
/// of them would be unreachable), and the advice that actually removes the clash.
struct NameClash {
  /// The imageset name both would have.
  var setName: String
  /// The asset left out (the later one in name order) and its recipe.
  var source: AssetSource
  var recipe: String
  /// The asset that keeps the name, and its recipe.
  var other: AssetSource
  var otherRecipe: String
  var providesNamespace: Bool

  /// The problem, on the left-out asset's first master.
  var problem: Problem {
    let path = source.masters[0].path
    let otherPath = other.masters[0].path
    let made =
      "imageset '\(setName)' (recipe \(recipe)) is also made from \(otherPath) (recipe \(otherRecipe)); Xcode needs unique names"
    return Problem(
      path: path,
      reason: "\(made): \(advice); nothing of \(source.qualifiedName) is written until then")
  }

  /// Only `provides-namespace` separates assets of different groups; within one group (or
  /// when namespaces are already on) one of the files must be renamed.
  var advice: String {
    let file = fileName(source.masters[0].path)
    let otherFile = fileName(other.masters[0].path)
    if source.group != other.group && !providesNamespace {
      return
        "set provides-namespace: true (they become \(qualified(other)) and \(qualified(source))), or rename \(file) or \(otherFile)"
    }
    if recipe != otherRecipe {
      return
        "rename \(file) or \(otherFile), or change the naming templates so that '\(recipe)' and '\(otherRecipe)' names differ"
    }
    return "rename \(file) or \(otherFile)"
  }

  private func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  private func qualified(_ asset: AssetSource) -> String {
    (asset.group + [setName]).joined(separator: "/")
  }
}
