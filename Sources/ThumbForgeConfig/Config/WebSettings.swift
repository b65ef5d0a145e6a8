/// The `web:` section of `thumbforge.yml`: width-based copies of every imageset for a web
/// page's `srcset`, beside the catalog. Off until `folder` is set. Every key is a row of
/// ``Setting/web``.
package struct WebSettings: Sendable, Equatable {
  /// The folder the web sizes are written into, relative to the asset folder (outside it and
  /// outside the catalog); nil: no web sizes.
  package var folder: String? = nil
  /// The line of `folder`, for errors about it.
  package var folderLine: Int? = nil
  /// The widths offered, in pixels, ascending; a width above the image's own is left out
  /// (never enlarged).
  package var widths: [Int] = [320, 640, 960, 1280, 1920]
  /// The formats of every width, in the order a `<picture>` lists them (the first a browser
  /// takes wins).
  package var formats: [WebFormat] = [.webp, .auto]

  /// Whether the build writes web sizes.
  package var isOn: Bool { folder != nil }

  /// The settings that decide the web files' pixels and names (an imageset key's line).
  package var keyText: String {
    "widths=\(widths.map(String.init).joined(separator: ","));formats=\(formats.map(\.rawValue).joined(separator: ","))"
  }

  package init() {}
}

/// A format of the web sizes (`web: formats:`).
package enum WebFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case avif
  case webp
  /// The catalog file's own format (JPEG or PNG; PNG for a file in another format).
  case auto
  case jpeg
  case png
}
