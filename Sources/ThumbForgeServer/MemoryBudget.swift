internal import Foundation

/// How much estimated render memory `serve` admits at once (`serve.memory-budget`).
///
/// Each render's peak is estimated from its plan (``ThumbForge/RenderCost/peakBytes(of:)``);
/// renders start while the sum of the running ones stays within the budget. Unset, the
/// budget is half the memory the process may use — its cgroup's limit (v2 `memory.max`, v1
/// `memory.limit_in_bytes`), else the machine's memory — less the decoded-master cache: the
/// other half is left for the process itself, the in-memory output cache, the decoded
/// masters and the page cache.
enum MemoryBudget {
  /// The budget in bytes: `configuredMB` when set (non-zero), else the automatic one.
  static func bytes(configuredMB: Int, decodedCacheBytes: Int) -> Int {
    if configuredMB > 0 { return configuredMB * 1_048_576 }
    return automatic(limit: memoryLimit(), decodedCacheBytes: decodedCacheBytes)
  }

  /// Half of `limit`, less the decoded-master cache, and at least 64 MB.
  static func automatic(limit: Int, decodedCacheBytes: Int) -> Int {
    max(64 * 1_048_576, limit / 2 - decodedCacheBytes)
  }

  /// The memory this process may use: its cgroup's limit when one is set, else the
  /// machine's physical memory.
  static func memoryLimit() -> Int {
    let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
    let limits = cgroupLimitFiles().compactMap(readLimit)
    return limits.filter { $0 > 0 && $0 < physical }.min() ?? physical
  }

  /// The files that may hold this process's cgroup memory limit (v2, then v1), from
  /// `/proc/self/cgroup`; the mount's root too, as inside a cgroup namespace.
  private static func cgroupLimitFiles() -> [String] {
    var files = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
    guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else {
      return files
    }
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, fields[2] != "/" else { continue }
      if fields[1].isEmpty {
        files.append("/sys/fs/cgroup\(fields[2])/memory.max")
      } else if fields[1].split(separator: ",").contains("memory") {
        files.append("/sys/fs/cgroup/memory\(fields[2])/memory.limit_in_bytes")
      }
    }
    return files
  }

  /// A limit file's value in bytes; nil when absent or `max` (no limit).
  private static func readLimit(_ path: String) -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
