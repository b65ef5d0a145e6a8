/// The media types an `Accept` header names with a non-zero quality, for `.auto` image
/// requests: `image/avif,image/webp,image/*,*/*;q=0.8` accepts `image/avif` and `image/webp`;
/// `image/webp;q=0` refuses WebP. Wildcards are not expanded (a browser that decodes AVIF
/// names it).
struct AcceptHeader {
  private let types: [Substring]

  init(_ header: String) {
    types = header.split(separator: ",").compactMap { range in
      let parts = range.split(separator: ";")
      guard let type = parts.first?.trimmingSpaces, !type.isEmpty else { return nil }
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q",
          let quality = Double(pair[1].trimmingSpaces), quality <= 0
        {
          return nil
        }
      }
      return type
    }
  }

  /// Whether the header names `type` (case-insensitively) with a quality above 0.
  func accepts(_ type: String) -> Bool {
    types.contains { $0.count == type.count && $0.lowercased() == type }
  }
}

extension Substring {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
