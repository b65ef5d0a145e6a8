import Synchronization
import Testing
import ThumbForge

@testable import ThumbForgeServer

/// The resolve memo keeps the request paths in use: past its limit the least recently used
/// go, not the whole memo.
@Suite("Resolve memo")
struct FolderSnapshotTests {
  @Test("a path in use stays resolved while thousands of others come and go")
  func keepsWhatIsInUse() throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (server, _) = try harness.server()
    let snapshot = FolderSnapshot(server.currentFolder)
    let made = Mutex<[String: Int]>([:])
    func resolve(_ key: String) {
      _ = snapshot.resolve(key) {
        made.withLock { $0[key, default: 0] += 1 }
        return .failure(.unknownAsset(key))
      }
    }
    resolve("hot")
    for index in 0..<(FolderSnapshot.limit * 2) {
      resolve("cold-\(index)")
      if index % 1_000 == 0 { resolve("hot") }
    }
    #expect(made.withLock { $0["hot"] } == 1)
    #expect(made.withLock { $0["cold-0"] } == 1)
    #expect(snapshot.resolutions == FolderSnapshot.limit)
    // The oldest cold path was let go, and is resolved again when asked for.
    resolve("cold-0")
    #expect(made.withLock { $0["cold-0"] } == 2)
  }
}
