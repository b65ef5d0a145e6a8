internal import ThumbForgeCatalog

/// One imageset as written: its manifest entry, and the stamp of every file written for it
/// (its images and `Contents.json`, by path in the catalog), taken from the descriptors that
/// wrote them, so that the probe cache records them without a `stat` of each path at the
/// end of the build.
struct WrittenImageSet: Sendable {
  var entry: ManifestImageSet
  var stamps: [String: FileStamp]
}
