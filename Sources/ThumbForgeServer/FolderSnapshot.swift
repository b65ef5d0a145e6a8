internal import Synchronization
internal import ThumbForge

/// The folder as last loaded, with the requests already resolved against it (by the path
/// after the signature): resolving plans an imageset, which a repeated request need not
/// do again. Replaced as a whole when the folder is reloaded.
final class FolderSnapshot: Sendable {
  let folder: OnDemandFolder
  private let resolved = Mutex([String: Result<OnDemandRequest, OnDemandError>]())
  private static let limit = 20_000

  init(_ folder: OnDemandFolder) {
    self.folder = folder
  }

  func resolve(
    _ key: String, _ make: () -> Result<OnDemandRequest, OnDemandError>
  ) -> Result<OnDemandRequest, OnDemandError> {
    if let known = resolved.withLock({ $0[key] }) { return known }
    let result = make()
    resolved.withLock { table in
      if table.count >= Self.limit { table.removeAll(keepingCapacity: true) }
      table[key] = result
    }
    return result
  }
}
