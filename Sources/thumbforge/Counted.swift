/// A count with its noun in the right number: `1 source`, `3 sources`, `1 entry`.
func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
