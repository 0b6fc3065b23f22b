/// A strict JSON parser (RFC 8259) for untrusted payloads: bounded nesting depth, duplicate keys
/// rejected, invalid UTF-8 rejected, every error a value rather than a crash.
public struct JSONParser: Sendable {
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    public var maxDepth: Int

    public init(maxDepth: Int = 32) { self.maxDepth = maxDepth }

    public func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected data after the JSON value") }
        return value
    }

    public func parse(_ text: String) throws(Error) -> JSONValue { try parse(Array(text.utf8)) }
}

private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> JSONParser.Error { JSONParser.Error(message: message, offset: index) }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONParser.Error) -> JSONValue {
        for byte in literal.utf8 {
            guard peek == byte else { throw error("invalid literal") }
            index += 1
        }
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard let byte = peek else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        var object = JSONObject()
        var seen = Set<String>()
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            guard seen.insert(key).inserted else { throw error("duplicate key \"\(key.prefix(64))\"") }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONParser.Error) -> JSONValue {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, first >= 0x30, first <= 0x39 else { throw error("invalid number") }
        if first == 0x30 {
            index += 1
        } else {
            while let b = peek, b >= 0x30, b <= 0x39 { index += 1 }
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let b = peek, b >= 0x30, b <= 0x39 else { throw error("invalid number") }
            while let b = peek, b >= 0x30, b <= 0x39 { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let b = peek, b >= 0x30, b <= 0x39 else { throw error("invalid number") }
            while let b = peek, b >= 0x30, b <= 0x39 { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        // Integers beyond Int64 and all fractions become doubles; infinities are refused.
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }

    mutating func parseString() throws(JSONParser.Error) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                scalars.append(try parseEscape())
            case 0x00..<0x20:
                throw error("control character in string")
            case 0x00..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try parseUTF8Scalar())
            }
        }
    }

    mutating func parseEscape() throws(JSONParser.Error) -> Unicode.Scalar {
        guard let byte = peek else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard peek == UInt8(ascii: "\\") else { throw error("lone surrogate") }
                index += 1
                guard peek == UInt8(ascii: "u") else { throw error("lone surrogate") }
                index += 1
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw error("invalid escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("lone surrogate") }
            return scalar
        default:
            throw error("invalid escape")
        }
    }

    mutating func parseHex4() throws(JSONParser.Error) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek else { throw error("invalid \\u escape") }
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Decodes one multi-byte UTF-8 sequence, refusing overlong forms and surrogates.
    mutating func parseUTF8Scalar() throws(JSONParser.Error) -> Unicode.Scalar {
        let lead = bytes[index]
        let count: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: count = 1; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: count = 2; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: count = 3; value = UInt32(lead & 0x07)
        default: throw error("invalid UTF-8")
        }
        guard index + count < bytes.count else { throw error("invalid UTF-8") }
        for offset in 1...count {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = count == 1 ? 0x80 : count == 2 ? 0x800 : 0x10000
        guard value >= minimum, value <= 0x10FFFF, let scalar = Unicode.Scalar(value) else {
            throw error("invalid UTF-8")
        }
        index += count + 1
        return scalar
    }
}
