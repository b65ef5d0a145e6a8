/// Ordered operation arguments, written as a dictionary literal or built up by appending.
struct VipsArguments: ExpressibleByDictionaryLiteral, Sendable {
  var pairs: [(String, VipsValue)]

  init(dictionaryLiteral elements: (String, VipsValue)...) {
    pairs = elements
  }

  init(_ pairs: [(String, VipsValue)]) {
    self.pairs = pairs
  }

  mutating func append(_ key: String, _ value: VipsValue) {
    pairs.append((key, value))
  }
}
