internal import Foundation

/// One of `count` parts of a build (`build --shard 2/4`): the index is 1-based, as in
/// Playwright's and Jest's `--shard`, so that a CI matrix can list `1…N`.
package struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
  /// 1…count.
  package var index: Int
  package var count: Int

  /// The largest shard count accepted: far beyond what a build needs, small enough to catch
  /// a typo (`--shard 1/40000`).
  package static let maximumCount = 1024

  package init(index: Int, count: Int) throws(ShardError) {
    guard (1...Self.maximumCount).contains(count) else {
      throw ShardError("the shard count must be 1…\(Self.maximumCount), got \(count)")
    }
    guard (1...count).contains(index) else {
      throw ShardError("the shard index must be 1…\(count), got \(index)")
    }
    self.index = index
    self.count = count
  }

  /// Parses `I/N` (`--shard`, `THUMBFORGE_SHARD`).
  package init(parsing text: String) throws(ShardError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2,
      let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
      let count = Int(parts[1].trimmingCharacters(in: .whitespaces))
    else {
      throw ShardError("'\(text)' is not a shard: write I/N, e.g. 2/4 (the second of four)")
    }
    try self.init(index: index, count: count)
  }

  /// The shard a process is asked to build, from its options and environment, in this order:
  /// an explicit `I/N`; `count` (`--shards N`) with Kubernetes' 0-based
  /// `JOB_COMPLETION_INDEX`; `THUMBFORGE_SHARD=I/N`. Nil when none is given.
  package static func resolve(
    explicit: String?, count: Int?, environment: [String: String]
  ) throws(ShardError) -> Shard? {
    if let explicit {
      if count != nil { throw ShardError("give either --shard I/N or --shards N, not both") }
      return try Shard(parsing: explicit)
    }
    if let count {
      guard let text = environment["JOB_COMPLETION_INDEX"] else {
        throw ShardError(
          "--shards \(count) takes the shard from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), which is not set; use --shard I/N elsewhere"
        )
      }
      guard let completion = Int(text), completion >= 0 else {
        throw ShardError("JOB_COMPLETION_INDEX='\(text)' is not an index (0, 1, 2…)")
      }
      guard completion < count else {
        throw ShardError("JOB_COMPLETION_INDEX=\(completion) is out of range for --shards \(count)")
      }
      return try Shard(index: completion + 1, count: count)
    }
    if let text = environment["THUMBFORGE_SHARD"], !text.isEmpty {
      do {
        return try Shard(parsing: text)
      } catch {
        throw ShardError("THUMBFORGE_SHARD: \(error.message)")
      }
    }
    return nil
  }

  /// `2/4`.
  package var description: String { "\(index)/\(count)" }

  /// The default part folder's name: `2-of-4`.
  package var folderName: String { "\(index)-of-\(count)" }
}

/// A shard that cannot be read or used, or partial results that cannot be merged.
package struct ShardError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}
