internal import Foundation
internal import Synchronization
internal import Vips

/// Finishes one job's resized images (shape, flatten, encode: ``Renderer``'s steps after
/// the resize) on the job's own thread, or on an idle core borrowed from the build's
/// ``CoreSlots`` while the job goes on to its next resize.
///
/// A master's outputs are independent, so the files are the same bytes whichever thread
/// makes them; only the time changes: a large master left last in a build no longer keeps
/// one core busy while the other waits.
final class OutputFinisher: Sendable {
  /// Makes the file of output `index` from `image` (its resize), with the memo of outputs
  /// sharing that resize.
  typealias Finish =
    @Sendable (_ index: Int, _ image: VipsImage, _ memo: EncodingMemo)
    throws(VipsError) -> RenderedFile

  private let slots: CoreSlots?
  private let finish: Finish
  private let group = DispatchGroup()
  private let results = Mutex<[Int: Result<RenderedFile, VipsError>]>([:])

  /// Finishes on borrowed cores when `slots` is given and one is free; else always here.
  init(slots: CoreSlots?, finish: @escaping Finish) {
    self.slots = slots
    self.finish = finish
  }

  /// Finishes the outputs `indices`, all resized to `image`: on a borrowed core when one is
  /// free (its failures are thrown by ``files(count:)``), else now, throwing the first.
  func submit(_ indices: [Int], _ image: VipsImage) throws(VipsError) {
    guard let slots, slots.borrow() else {
      let memo = EncodingMemo()
      for index in indices {
        let file = try finish(index, image, memo)
        results.withLock { $0[index] = .success(file) }
      }
      return
    }
    // Pixels of its own, linked to no image the job goes on using: libvips 8.14 walks every
    // image linked to one it computes, and a walk meeting an image the job's thread is
    // freeing crashed (see `VipsImage.detached()`).
    let own: VipsImage
    do { own = try image.detached() } catch {
      slots.give()
      throw error
    }
    // Its own serial queue, which libdispatch gives a thread at once: the global queues'
    // threads may all be running jobs (more jobs than cores: `concurrency`, `--jobs`), and
    // a borrowed core waiting for one of them would hold the job up until libdispatch's
    // monitor adds a thread, about a second later.
    DispatchQueue(label: "thumbforge.finish").async(group: group) {
      defer { slots.give() }
      let memo = EncodingMemo()
      for index in indices {
        let result = Result { () throws(VipsError) in try self.finish(index, own, memo) }
        self.results.withLock { $0[index] = result }
        if case .failure = result { return }
      }
    }
  }

  /// Waits until every borrowed core is done (and given back).
  func wait() { group.wait() }

  /// The files of outputs `0..<count`, once every borrowed core is done; the failure of the
  /// first output (by index) that failed, if any.
  func files(count: Int) throws(VipsError) -> [RenderedFile] {
    wait()
    let results = results.withLock { $0 }
    var files: [RenderedFile] = []
    for index in 0..<count {
      switch results[index] {
      case .success(let file): files.append(file)
      case .failure(let error): throw error
      case nil: continue
      }
    }
    return files
  }
}
