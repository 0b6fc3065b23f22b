extension YAMLScalar {
    /// The scalar as an integer, read as Yams' `Int.construct` read it (the loader's rules before
    /// this reader): plain scalars only; `_` ignored; `0x`, `0b`, `0o` and a leading `0` (octal)
    /// prefixes; `1:30` sexagesimal. Nil when it is none of these or does not fit in an `Int`.
    var integer: Int? {
        guard isPlain else { return nil }
        let withSign = String(string.unicodeScalars.filter { $0 != "_" })
        if withSign == "0" { return 0 }
        let negative = withSign.hasPrefix("-")
        let hasSign = negative || withSign.hasPrefix("+")
        let body = withSign.dropFirst(hasSign ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where body.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + body.dropFirst(prefix.count), radix: radix)
        }
        if body.contains(":") { return Self.sexagesimal(withSign) }
        return Int(withSign)
    }

    /// The scalar as a boolean: `true`/`yes`/`on` and `false`/`no`/`off` in any case.
    var boolean: Bool? {
        switch string.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// `[-+]a:b:c` = ±(a·60² + b·60 + c). Nil on overflow (Yams trapped there).
    private static func sexagesimal(_ text: String) -> Int? {
        var body = Substring(text)
        var sign = 1
        if body.hasPrefix("-") {
            sign = -1
            body = body.dropFirst()
        } else if body.hasPrefix("+") {
            body = body.dropFirst()
        }
        var value = 0
        for component in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int(component, radix: 10) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 60)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            if overflowA || overflowB { return nil }
            value = sum
        }
        let (signed, overflow) = value.multipliedReportingOverflow(by: sign)
        return overflow ? nil : signed
    }
}
