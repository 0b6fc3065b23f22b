/// The int, float and timestamp rules of YAML 1.1 implicit typing, written out by hand instead of
/// as regular expressions (which would need Foundation). Each comment shows the expression of
/// Yams' `Resolver.default` that the code matches; a text matches when one alternative matches
/// all of it.
enum YAMLScalarPattern {
    static func isInt(_ text: [UInt8]) -> Bool {
        // [-+]?0b[0-1_]+
        matches(text) { $0.sign(); return $0.literal("0b") && $0.many({ $0 == 0x30 || $0 == 0x31 || $0 == underscore }, atLeast: 1) }
            // [-+]?0o?[0-7_]+
            || matches(text) {
                $0.sign()
                guard $0.literal("0") else { return false }
                _ = $0.literal("o")
                return $0.many(isOctalOrUnderscore, atLeast: 1)
            }
            // [-+]?(?:0|[1-9][0-9_]*)
            || matches(text) { $0.sign(); return $0.literal("0") }
            || matches(text) { $0.sign(); return $0.one(isNonZeroDigit) && $0.many(isDigitOrUnderscore) }
            // [-+]?0x[0-9a-fA-F_]+
            || matches(text) { $0.sign(); return $0.literal("0x") && $0.many(isHexOrUnderscore, atLeast: 1) }
            // [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
            || matches(text) { $0.sign(); return $0.one(isNonZeroDigit) && $0.many(isDigitOrUnderscore) && $0.sexagesimalTail() }
    }

    static func isFloat(_ text: [UInt8]) -> Bool {
        // [-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?
        matches(text) {
            $0.sign()
            guard $0.one(isDigit), $0.many(isDigitOrUnderscore) else { return false }
            if $0.literal(".") { _ = $0.many(isDigitOrUnderscore) }
            return $0.exponent(signRequired: false)
        }
            // \.[0-9_]+(?:[eE][-+][0-9]+)?
            || matches(text) { $0.literal(".") && $0.many(isDigitOrUnderscore, atLeast: 1) && $0.exponent(signRequired: true) }
            // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
            || matches(text) {
                $0.sign()
                return $0.one(isDigit) && $0.many(isDigitOrUnderscore) && $0.sexagesimalTail() && $0.literal(".")
                    && $0.many(isDigitOrUnderscore)
            }
            // [-+]?\.(?:inf|Inf|INF)
            || matches(text) { $0.sign(); return $0.literal(".") && ($0.literal("inf") || $0.literal("Inf") || $0.literal("INF")) }
            // \.(?:nan|NaN|NAN)
            || matches(text) { $0.literal(".") && ($0.literal("nan") || $0.literal("NaN") || $0.literal("NAN")) }
    }

    static func isTimestamp(_ text: [UInt8]) -> Bool {
        // [0-9]{4}-[0-9]{2}-[0-9]{2}
        matches(text) { $0.digits(4) && $0.literal("-") && $0.digits(2) && $0.literal("-") && $0.digits(2) }
            // [0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?
            // (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?
            || matches(text) {
                guard $0.digits(4), $0.literal("-"), $0.oneOrTwoDigits(), $0.literal("-"), $0.oneOrTwoDigits() else { return false }
                guard $0.one({ $0 == 0x54 || $0 == 0x74 }) || $0.many(isBlank, atLeast: 1) else { return false }
                guard $0.oneOrTwoDigits(), $0.literal(":"), $0.digits(2), $0.literal(":"), $0.digits(2) else { return false }
                if $0.literal(".") { _ = $0.many(isDigit) }
                // The zone is optional as a whole: blanks without one stay unmatched.
                let beforeZone = $0.index
                _ = $0.many(isBlank)
                if $0.literal("Z") { return true }
                if $0.one({ $0 == 0x2B || $0 == 0x2D }) {
                    guard $0.oneOrTwoDigits() else { return false }
                    if $0.literal(":") { return $0.digits(2) }
                    return true
                }
                $0.index = beforeZone
                return true
            }
    }

    /// Runs `pattern` from the start; true when it succeeds and has consumed all of `text`.
    private static func matches(_ text: [UInt8], _ pattern: (inout Cursor) -> Bool) -> Bool {
        var cursor = Cursor(bytes: text)
        return pattern(&cursor) && cursor.atEnd
    }

    private static let underscore: UInt8 = 0x5F
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isNonZeroDigit(_ byte: UInt8) -> Bool { (0x31...0x39).contains(byte) }
    private static func isDigitOrUnderscore(_ byte: UInt8) -> Bool { isDigit(byte) || byte == underscore }
    private static func isOctalOrUnderscore(_ byte: UInt8) -> Bool { (0x30...0x37).contains(byte) || byte == underscore }
    private static func isHexOrUnderscore(_ byte: UInt8) -> Bool {
        isDigitOrUnderscore(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// A position in the text. Every rule above is deterministic once written this way (no
    /// backtracking is needed: where an expression could stop early, what must follow cannot
    /// start with what it would leave).
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func one(_ test: (UInt8) -> Bool) -> Bool {
            guard index < bytes.count, test(bytes[index]) else { return false }
            index += 1
            return true
        }

        /// Greedy; true when at least `atLeast` matched.
        mutating func many(_ test: (UInt8) -> Bool, atLeast: Int = 0) -> Bool {
            let start = index
            while one(test) {}
            return index - start >= atLeast
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            let pointer = text.utf8Start
            for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
            index += count
            return true
        }

        /// `[-+]?`
        mutating func sign() { _ = one { $0 == 0x2B || $0 == 0x2D } }

        mutating func digits(_ count: Int) -> Bool {
            for _ in 0..<count where !one(YAMLScalarPattern.isDigit) { return false }
            return true
        }

        /// `[0-9][0-9]?`
        mutating func oneOrTwoDigits() -> Bool {
            guard one(YAMLScalarPattern.isDigit) else { return false }
            _ = one(YAMLScalarPattern.isDigit)
            return true
        }

        /// `(?::[0-5]?[0-9])+`: two digits when the first is 0–5 and a digit follows, since a
        /// digit can never follow the group.
        mutating func sexagesimalTail() -> Bool {
            var groups = 0
            while literal(":") {
                guard index < bytes.count else { return false }
                let first = bytes[index]
                if (0x30...0x35).contains(first), index + 1 < bytes.count, YAMLScalarPattern.isDigit(bytes[index + 1]) {
                    index += 2
                } else if YAMLScalarPattern.isDigit(first) {
                    index += 1
                } else {
                    return false
                }
                groups += 1
            }
            return groups > 0
        }

        /// `(?:[eE][-+]?[0-9]+)?` (sign required in the `.5e+1` form); false when an exponent starts but is incomplete.
        mutating func exponent(signRequired: Bool) -> Bool {
            guard one({ $0 == 0x45 || $0 == 0x65 }) else { return true }
            let signed = one { $0 == 0x2B || $0 == 0x2D }
            if signRequired && !signed { return false }
            return many(YAMLScalarPattern.isDigit, atLeast: 1)
        }
    }
}
