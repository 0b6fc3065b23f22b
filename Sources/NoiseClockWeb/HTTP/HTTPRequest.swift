/// One parsed HTTP/1.x request. Header names are lower-cased; the target is split into the
/// path (percent-decoded) and the raw query.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var query: String?
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, path: String, query: String? = nil, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first header of that (lower-case) name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// A query parameter's decoded value (`?token=abc` → `abc`).
    public func queryValue(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if PercentDecoding.decode(Substring(parts[0]), plusIsSpace: true) == name {
                return parts.count > 1 ? PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
            }
        }
        return nil
    }

    /// The query without one parameter, every key and value decoded and percent-encoded again
    /// (for the redirect after `?token=`: no request byte goes into a header as it came); nil
    /// when nothing is left.
    public func query(removing name: String) -> String? {
        guard let query else { return nil }
        var kept: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = PercentDecoding.decode(Substring(parts[0]), plusIsSpace: true)
            guard key != name else { continue }
            var encoded = CleanPath.encodeComponent(key)
            if parts.count > 1 { encoded += "=" + CleanPath.encodeComponent(PercentDecoding.decode(parts[1], plusIsSpace: true)) }
            kept.append(encoded)
        }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    /// A cookie's first value from the `Cookie` header.
    public func cookie(_ name: String) -> String? {
        cookies(name).first
    }

    /// Every value of a cookie, in the order sent: a browser sends two cookies of one name when
    /// they differ in path (the longer path first) or domain, and only the server can tell which
    /// is its own.
    public func cookies(_ name: String) -> [String] {
        var values: [String] = []
        for header in headers where header.name == "cookie" {
            for part in header.value.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2, pair[0].trimmingSpaces == name { values.append(String(pair[1].trimmingSpaces)) }
            }
        }
        return values
    }

    /// The token of `Authorization: Bearer <token>`.
    public var bearerToken: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1].trimmingSpaces)
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}

enum PercentDecoding {
    /// `%2F` → `/`; a malformed escape is kept as it is.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                let high = bytes.next(), low = bytes.next()
                if let high, let low, let h = high.hexDigitValue, let l = low.hexDigitValue {
                    out.append(h << 4 | l)
                } else {
                    out.append(byte)
                    if let high { out.append(high) }
                    if let low { out.append(low) }
                }
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
