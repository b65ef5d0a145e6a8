internal import ThumbForge
internal import ThumbForgeConfig
internal import Vips

/// The preview page at `/`: every asset of the folder with each of its recipes at every
/// scale the catalog has (dark appearances and Display P3 files too), each image loaded from
/// the server itself (signed when the server signs) — a live contact sheet for designers.
struct PreviewPage {
  let folder: OnDemandFolder
  let signer: URLSigner?

  func html() -> String {
    var rows = ""
    for asset in folder.assets {
      var cells = ""
      for output in folder.catalogOutputs(of: asset) {
        let slot = output.slot
        let name = Self.escapePath(asset + slot.fileSuffix) + slot.scaleSuffix
        let path =
          "/\(Self.escapePath(output.recipe))/\(name).\(output.format.fileExtension)"
        let url = signer?.signed(path) ?? "/\(URLSigner.unsignedSegment)\(path)"
        let label = "\(output.recipe) \(slot.scaleSuffix)\(slot.fileSuffix)"
        cells += """
          <figure><img src="\(Self.escapeHTML(url))" loading="lazy" \
          style="zoom:\(1.0 / Double(slot.scale))" alt="\(Self.escapeHTML(label))">\
          <figcaption>\(Self.escapeHTML(label))</figcaption></figure>
          """
      }
      rows += "<section><h2>\(Self.escapeHTML(asset))</h2>\(cells)</section>\n"
    }
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><title>ThumbForge preview</title>
      <style>
      body{font:14px -apple-system,system-ui,sans-serif;margin:24px;background:#f4f4f4}
      section{background:#fff;border-radius:8px;padding:12px;margin:0 0 16px}
      h2{font-size:15px;margin:0 0 8px} figure{display:inline-block;margin:0 16px 8px 0;vertical-align:top}
      figcaption{color:#666;font-size:12px} img{background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0/16px 16px}
      </style></head><body>
      <h1>\(folder.assets.count) assets</h1>
      \(rows)</body></html>

      """
  }

  /// Percent-encodes a name for a path, keeping `/` between groups.
  static func escapePath(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: ":"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
      }
    }
    return result
  }

  static func escapeHTML(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
