extension String {
    /// The text with spaces after it to `width` characters, for a column of printed lines.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
