/// SVG path data for rounded rectangles, circular or continuous (squircle-like) corners.
package enum RoundedRectPath {
  /// How far a continuous corner's curve reaches along each edge, in radii (the value
  /// measured from iOS's continuous corner curve).
  static let continuousReach = 1.528665

  /// Path data for a rectangle at (`x`, `y`) of `width` × `height` with corner `radius`.
  package static func svg(
    x: Double, y: Double, width: Double, height: Double, radius: Double, style: CornerStyle
  ) -> String {
    let short = min(width, height)
    guard radius > 0 else {
      return "M\(n(x)),\(n(y))H\(n(x + width))V\(n(y + height))H\(n(x))Z"
    }
    switch style {
    case .circular:
      let r = min(radius, short / 2)
      return [
        "M\(n(x + r)),\(n(y))", "H\(n(x + width - r))",
        "A\(n(r)),\(n(r)) 0 0 1 \(n(x + width)),\(n(y + r))", "V\(n(y + height - r))",
        "A\(n(r)),\(n(r)) 0 0 1 \(n(x + width - r)),\(n(y + height))", "H\(n(x + r))",
        "A\(n(r)),\(n(r)) 0 0 1 \(n(x)),\(n(y + height - r))", "V\(n(y + r))",
        "A\(n(r)),\(n(r)) 0 0 1 \(n(x + r)),\(n(y))", "Z",
      ].joined()
    case .continuous:
      let r = min(radius, short / 2 / continuousReach)
      return continuous(x: x, y: y, width: width, height: height, r: r)
    }
  }

  /// Three cubic curves per corner (the published approximation of iOS's continuous
  /// corners), expressed for the top-right corner and rotated to the other three.
  private static func continuous(x: Double, y: Double, width: Double, height: Double, r: Double)
    -> String
  {
    // (along, across) offsets from the corner, in radii, for the top-right corner walked
    // clockwise: `along` runs back from the corner along the edge, `across` into the rect.
    let curves: [[(Double, Double)]] = [
      [(1.08849, 0), (0.868407, 0), (0.631494, 0.074911)],
      [(0.372824, 0.16906), (0.16906, 0.372824), (0.074911, 0.631494)],
      [(0, 0.868407), (0, 1.08849), (0, continuousReach)],
    ]
    let left = x
    let top = y
    let right = x + width
    let bottom = y + height
    // Map (along, across) at a given corner to absolute coordinates.
    let corners: [(Double, Double) -> (Double, Double)] = [
      { a, c in (right - a * r, top + c * r) },  // top-right
      { a, c in (right - c * r, bottom - a * r) },  // bottom-right
      { a, c in (left + a * r, bottom - c * r) },  // bottom-left
      { a, c in (left + c * r, top + a * r) },  // top-left
    ]
    var path = "M\(n(left + continuousReach * r)),\(n(top))"
    for corner in corners {
      let start = corner(continuousReach, 0)
      path += "L\(n(start.0)),\(n(start.1))"
      for curve in curves {
        let points = curve.map { corner($0.0, $0.1) }
        path += "C" + points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
      }
    }
    return path + "Z"
  }

  /// A compact, locale-independent number: up to four decimals, trailing zeros dropped
  /// ("12", "0.5", "-3.1416"). Written out by hand: a continuous-corner path has about sixty
  /// numbers, and Foundation's formatting plus a regular expression compiled for the zeros
  /// made them a visible part of rendering a flag.
  package static func n(_ value: Double) -> String {
    let tenThousandths = (value * 10_000).rounded()
    let rounded = tenThousandths / 10_000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    let units = Int(tenThousandths)
    var fraction = String(units.magnitude % 10_000)
    fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return (units < 0 ? "-" : "") + String(units.magnitude / 10_000) + "." + fraction
  }
}
