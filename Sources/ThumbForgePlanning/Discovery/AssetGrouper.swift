internal import ThumbForgeBasics

/// Groups probed masters into assets by name and folder, and finds conflicts.
enum AssetGrouper {
  /// A probed master and the asset it belongs to (see ``MasterCandidates``).
  struct Entry {
    var master: Master
    var group: [String]
    var asset: String
  }

  /// Builds assets from probed masters. Two masters for one slot, or masters whose point
  /// sizes disagree, are problems naming both files; such an asset is left out.
  static func group(_ entries: [Entry]) -> (assets: [AssetSource], problems: [Problem]) {
    var buckets: [String: (group: [String], name: String, masters: [Master])] = [:]
    for entry in entries {
      let key = (entry.group + [entry.asset]).joined(separator: "/")
      buckets[key, default: (entry.group, entry.asset, [])].masters.append(entry.master)
    }
    var assets: [AssetSource] = []
    var problems: [Problem] = []
    for key in buckets.keys.sorted() {
      let bucket = buckets[key]!
      let sorted = bucket.masters.sorted { $0.path < $1.path }
      let light = sorted.filter { !$0.isDark && !$0.isTinted }
      let dark = sorted.filter(\.isDark)
      let tinted = sorted.filter(\.isTinted)
      let found =
        conflicts(light) + conflicts(dark) + conflicts(tinted)
        + sizeConflicts(light + dark + tinted)
      if !found.isEmpty {
        problems += found
        continue
      }
      if light.isEmpty {
        problems += (dark + tinted).map {
          Problem(
            path: $0.path,
            reason:
              "\($0.isDark ? "dark" : "tinted") master without a light (any appearance) master; skipped"
          )
        }
        continue
      }
      assets.append(
        AssetSource(
          group: bucket.group, name: bucket.name, masters: light, darkMasters: dark,
          tintedMasters: tinted))
    }
    // Xcode looks images up by name across the catalog: the same name in two groups clashes
    // unless namespaced; that is checked by the planner, which knows the configuration.
    return (assets, problems)
  }

  /// Two masters for one scale (or two vector masters).
  private static func conflicts(_ masters: [Master]) -> [Problem] {
    var bySlot: [String: Master] = [:]
    var problems: [Problem] = []
    for master in masters {
      let slot = master.isVector ? "vector" : "\(master.scale ?? 0)x"
      if let other = bySlot[slot] {
        problems.append(
          Problem(
            path: master.path,
            reason:
              "conflicts with \(other.path): both are the \(slot) master of one asset; remove one"))
      } else {
        bySlot[slot] = master
      }
    }
    return problems
  }

  /// Masters of one asset must describe the same point size (within one point).
  private static func sizeConflicts(_ masters: [Master]) -> [Problem] {
    guard let first = masters.first else { return [] }
    var problems: [Problem] = []
    for master in masters.dropFirst() {
      let a = first.pointSize
      let b = master.pointSize
      if abs(a.width - b.width) > 1 || abs(a.height - b.height) > 1 {
        problems.append(
          Problem(path: master.path, reason: "conflicts with \(first.path): \(b) vs \(a)")
        )
      }
    }
    return problems
  }
}
