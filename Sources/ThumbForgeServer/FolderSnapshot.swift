internal import ThumbForge
internal import ThumbForgeBasics

/// The folder as last loaded, with the requests already resolved against it (by the path
/// after the signature): resolving plans an imageset, which a repeated request need not
/// do again. The least recently used resolutions go first past ``limit`` (``LRUCache``);
/// replaced as a whole when the folder is reloaded.
final class FolderSnapshot: Sendable {
  let folder: OnDemandFolder
  private let resolved = LRUCache<Result<OnDemandRequest, OnDemandError>>(capacity: limit)
  /// The most resolutions kept.
  static let limit = 20_000

  init(_ folder: OnDemandFolder) {
    self.folder = folder
  }

  func resolve(
    _ key: String, _ make: () -> Result<OnDemandRequest, OnDemandError>
  ) -> Result<OnDemandRequest, OnDemandError> {
    if let known = resolved.value(for: key) { return known }
    let result = make()
    resolved.store(result, cost: 1, for: key)
    return result
  }

  /// How many resolutions are kept (for tests).
  var resolutions: Int { resolved.usage.entries }
}
