internal import ThumbForgeBasics
internal import Yams

/// The type of a configuration value: how it is written in the reference (`integer 1–100`),
/// how it is read from the file (with the error message for a bad value), and how a value is
/// printed as a default. Every key of ``RecipeParameter/all`` and ``Setting/all`` has one.
struct ConfigValue<Value: Sendable>: Sendable {
  /// The type and range in words, for the README's key tables.
  let summary: String
  /// Reads the value of a node, throwing an error naming the file, line and key.
  let read: @Sendable (ConfigNode) throws(ConfigError) -> Value
  /// A value as it would be written in `thumbforge.yml`.
  let text: @Sendable (Value) -> String
}

extension ConfigValue where Value == Bool {
  static var bool: Self {
    Self(summary: "`true` or `false`", read: { node throws(ConfigError) in try node.bool() }) {
      String($0)
    }
  }
}

extension ConfigValue where Value == Int {
  static func integer(_ range: ClosedRange<Int>) -> Self {
    let upper = range.upperBound == Int.max ? "" : "\(range.upperBound)"
    return Self(
      summary: upper.isEmpty
        ? "integer ≥ \(range.lowerBound)" : "integer \(range.lowerBound)–\(upper)",
      read: { node throws(ConfigError) in try node.int(in: range) }
    ) { String($0) }
  }
}

extension ConfigValue where Value == Double {
  /// A length in points, zero or more.
  static var points: Self {
    Self(summary: "number ≥ 0 (pt)", read: { node throws(ConfigError) in try node.double() }) {
      ConfigValue.number($0)
    }
  }
}

extension ConfigValue where Value == PointSize {
  /// The largest side a box may have, in points: 30 000 pixels at 3x, far beyond any screen,
  /// and small enough that every pixel size and area derived from it fits an `Int`.
  static var largestSide: Double { 10_000 }

  /// `[width, height]` in points, or one number for a square.
  static var size: Self {
    Self(
      summary: "`[width, height]` or one number (pt, > 0, ≤ \(ConfigValue.number(largestSide)))",
      read: { node throws(ConfigError) in
        func side(_ node: ConfigNode) throws(ConfigError) -> Double {
          let value = try node.double(allowZero: false)
          if value > largestSide {
            throw node.error(
              "\(ConfigValue.number(value)) pt is larger than the largest box side (\(ConfigValue.number(largestSide)) pt)"
            )
          }
          return value
        }
        if case .scalar = node.node {
          let length = try side(node)
          return PointSize(width: length, height: length)
        }
        let items = try node.sequence()
        guard items.count == 2 else { throw node.error("expected [width, height] in points") }
        return PointSize(width: try side(items[0]), height: try side(items[1]))
      }
    ) { "[\(ConfigValue.number($0.width)), \(ConfigValue.number($0.height))]" }
  }
}

extension ConfigValue where Value == [Int] {
  /// A list of display scales (1, 2, 3), each at most once; kept sorted.
  static var scales: Self {
    integers(
      in: 1...3, summary: "list of 1, 2, 3", item: "scale",
      empty: "list at least one scale (1, 2 or 3)")
  }

  /// A list of pixel widths (1–16384), each at most once, at least one; kept sorted.
  static var widths: Self {
    integers(
      in: 1...16384, summary: "list of integers 1–16384", item: "width",
      empty: "list at least one width")
  }

  /// A list of integers in `range`, each at most once (an `item` listed twice is named), at
  /// least one (else `empty`); kept sorted.
  private static func integers(
    in range: ClosedRange<Int>, summary: String, item: String, empty: String
  ) -> Self {
    Self(
      summary: summary,
      read: { node throws(ConfigError) in
        var values: [Int] = []
        for element in try node.sequence() {
          let value = try element.int(in: range)
          if values.contains(value) { throw element.error("\(item) \(value) is listed twice") }
          values.append(value)
        }
        if values.isEmpty { throw node.error(empty) }
        return values.sorted()
      }
    ) { "[\($0.map(String.init).joined(separator: ", "))]" }
  }
}

extension ConfigValue where Value == RGBAColor {
  static var color: Self {
    Self(
      summary: "`#RRGGBB`, `#RRGGBBAA`, `black`, `white`, `clear`",
      read: { node throws(ConfigError) in
        let text = try node.string()
        guard let color = RGBAColor(parsing: text) else {
          throw node.error("'\(text)' is not a colour (#RRGGBB, #RRGGBBAA, black, white, clear)")
        }
        return color
      }
    ) { color in
      color == .black ? "black" : color == .white ? "white" : color == .clear ? "clear" : "\(color)"
    }
  }
}

extension ConfigValue where Value == String {
  /// Any text but the empty string.
  static var text: Self {
    Self(summary: "text", read: { node throws(ConfigError) in try ConfigValue.nonEmpty(node) }) {
      $0
    }
  }
}

extension ConfigValue where Value == String? {
  /// Text that may be left unset (`nil` writes nothing).
  static var optionalText: Self {
    Self(
      summary: "text", read: { node throws(ConfigError) in try ConfigValue<String>.nonEmpty(node) }
    ) { $0 ?? "none" }
  }

  /// One of a few words, or unset.
  static func optionalChoice(_ words: [String]) -> Self {
    Self(
      summary: words.map { "`\($0)`" }.joined(separator: " \\| "),
      read: { node throws(ConfigError) in
        let text = try node.string()
        guard words.contains(text) else {
          throw node.error(
            "'\(text)' is not one of: \(words.joined(separator: ", "))\(Suggestion.phrase(for: text, in: words))"
          )
        }
        return text
      }
    ) { $0 ?? "none" }
  }
}

extension ConfigValue where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of the enum's raw values.
  static func choice(_ type: Value.Type) -> Self {
    Self(
      summary: Value.allCases.map { "`\($0.rawValue)`" }.joined(separator: " \\| "),
      read: { node throws(ConfigError) in try node.choice(Value.self) }
    ) { $0.rawValue }
  }
}

extension ConfigValue where Value == Gravity {
  /// A gravity; `centre` is accepted as libvips accepts it.
  static var gravity: Self {
    Self(
      summary: Gravity.allCases.map { "`\($0.rawValue)`" }.joined(separator: " \\| "),
      read: { node throws(ConfigError) in
        let text = try node.string()
        guard let gravity = Gravity(name: text) else {
          let names = Gravity.allCases.map(\.rawValue)
          throw node.error(
            "'\(text)' is not one of: \(names.joined(separator: ", "))\(Suggestion.phrase(for: text, in: names))"
          )
        }
        return gravity
      }
    ) { $0.rawValue }
  }
}

extension ConfigValue {
  /// A number without a needless `.0`.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  static func nonEmpty(_ node: ConfigNode) throws(ConfigError) -> String {
    let text = try node.string()
    if text.isEmpty { throw node.error("must not be empty") }
    return text
  }
}

extension ConfigValue {
  /// A list of an enum's raw values, each at most once, at least one; kept in the enum's
  /// order.
  static func choices<Item>(_ type: Item.Type) -> Self
  where
    Value == [Item], Item: RawRepresentable & CaseIterable & Equatable & Sendable,
    Item.RawValue == String
  {
    Self(
      summary: "list of " + Item.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "),
      read: { node throws(ConfigError) in
        var items: [Item] = []
        for element in try node.sequence() {
          let item = try element.choice(Item.self)
          if items.contains(item) { throw element.error("'\(item.rawValue)' is listed twice") }
          items.append(item)
        }
        if items.isEmpty {
          throw node.error(
            "list at least one of: \(Item.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return Item.allCases.filter { items.contains($0) }
      }
    ) { "[\($0.map(\.rawValue).joined(separator: ", "))]" }
  }
}

extension ConfigValue where Value == FocusPoint {
  /// `focus: [x, y]`: two fractions of the master's width and height, 0…1.
  static var focus: Self {
    Self(
      summary: "`[x, y]`, fractions 0–1",
      read: { node throws(ConfigError) in
        let message = "expected [x, y], each a fraction of the master from 0 to 1"
        guard let items = try? node.sequence() else { throw node.error(message) }
        var values: [Double] = []
        for item in items {
          guard let value = try? item.double(), value <= 1 else { throw node.error(message) }
          values.append(value)
        }
        guard values.count == 2 else { throw node.error(message) }
        return FocusPoint(x: values[0], y: values[1])
      }
    ) { "[\(ConfigValue<Double>.number($0.x)), \(ConfigValue<Double>.number($0.y))]" }
  }
}

extension ConfigValue where Value == [DisplayGamut] {
  /// `display-gamut`: `[sRGB]` or `[sRGB, display-P3]`, as Xcode offers them (a P3 slot
  /// without its sRGB one would leave every other display without the image).
  static var displayGamuts: Self {
    let list = ConfigValue.choices(DisplayGamut.self)
    return Self(
      summary: "`[sRGB]` \\| `[sRGB, display-P3]`",
      read: { node throws(ConfigError) in
        let gamuts = try list.read(node)
        guard gamuts.contains(.sRGB) else {
          throw node.error(
            "list sRGB too: [sRGB, display-P3] (devices without a wide-gamut display use the sRGB files)"
          )
        }
        return gamuts
      }
    ) { list.text($0) }
  }
}
