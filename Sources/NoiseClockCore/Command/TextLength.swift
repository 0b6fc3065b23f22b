/// The one rule for every text length the contract states (`label` at most 64 characters, `say`
/// 1–300, routine and mix names, timer labels): a "character" is a Unicode scalar, and the text's
/// UTF-8 bytes are bounded first (4 a scalar at most).
///
/// Never `String.count`: it counts grapheme clusters, and a run of Hangul leading consonants or an
/// emoji ZWJ chain is one cluster however long (issue 31: 63 KB of U+1100 passed as 1–300
/// characters and spoke for 19 minutes). The byte bound is checked before anything walks the text.
public struct TextLength: Sendable, Equatable, CustomStringConvertible {
    public let range: ClosedRange<Int>

    public init(_ range: ClosedRange<Int>) { self.range = range }
    public init(atMost limit: Int) { range = 0...limit }

    /// The most UTF-8 bytes a text within the limit can have.
    public var maxBytes: Int { range.upperBound * 4 }

    /// The text's length in scalars, or nil when it is out of range (bytes first, then scalars).
    public func measure(_ text: String) -> Int? {
        guard text.utf8.count <= maxBytes else { return nil }
        let scalars = text.unicodeScalars.count
        return range.contains(scalars) ? scalars : nil
    }

    /// `text` itself, or the `invalid_field` refusal every stated length answers with.
    @discardableResult
    public func check(_ text: String, _ key: String) throws(CommandError) -> String {
        guard measure(text) == nil else { return text }
        throw .invalidField(key, "\(key) must be \(description), got \(text.unicodeScalars.count)")
    }

    /// `at most 64 characters`, `1–300 characters`.
    public var description: String {
        range.lowerBound == 0 ? "at most \(range.upperBound) characters" : "\(range.lowerBound)–\(range.upperBound) characters"
    }
}
