/// The languages the node formats dates and repeat texts in. Unknown locales fall back to English.
public enum NodeLocale: String, Sendable, CaseIterable {
    case en
    case ko

    /// Accepts `en`, `en_US`, `ko-KR`, ... (the language part decides).
    public init?(identifier: String) {
        let language = identifier.lowercased().split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." }).first
        guard let language, let locale = NodeLocale(rawValue: String(language)) else { return nil }
        self = locale
    }
}
