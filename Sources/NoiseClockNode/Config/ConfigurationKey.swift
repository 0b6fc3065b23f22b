import NoiseClockCore

/// One key of the configuration, typed: its dotted path, its default, the check its value must
/// pass and one line of documentation. `ConfigurationKeys` declares every key; loading reads
/// them through `ConfigurationValues` and gets a checked value of `Value` or an error naming the key.
struct ConfigurationKey<Value: ConfigurationType>: AnyConfigurationKey {
    let path: String
    /// nil: unset unless the file or the environment sets it (loading may compute one).
    let defaultValue: Value?
    /// How docs/configuration.md writes a default that loading computes (nil: `defaultValue`, or "none").
    let computedDefault: String?
    /// A message when the value is not allowed, nil when it is.
    let check: @Sendable (Value) -> String?
    let doc: String

    init(
        _ path: String, _ defaultValue: Value?, computed: String? = nil,
        check: @escaping @Sendable (Value) -> String? = { _ in nil }, _ doc: String
    ) {
        self.path = path
        self.defaultValue = defaultValue
        self.computedDefault = computed
        self.check = check
        self.doc = doc
    }

    var kind: ConfigurationKind { Value.kind }
    var defaultConfigurationValue: ConfigurationValue? { defaultValue?.configurationValue }

    func effectiveValue(in values: ConfigurationValues) -> ConfigurationValue? {
        ((try? values.value(self)) ?? nil)?.configurationValue
    }

    var defaultProblem: String? { defaultValue.flatMap(check) }

    var documentedDefault: String {
        if let computedDefault { return computedDefault }
        return defaultValue.map { "`\($0.documented)`" } ?? "none"
    }
}

extension ConfigurationKey where Value == Int {
    /// An integer key allowed only within `range` (up to `Int.max`: at least its lower bound); its
    /// doc says the range where it writes `{range}`.
    init(_ path: String, _ defaultValue: Int, range: ClosedRange<Int>, _ doc: String) {
        let open = range.upperBound == .max
        let text = open ? "at least \(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
        let check: @Sendable (Int) -> String? = {
            open ? ConfigurationValidation.atLeast($0, range.lowerBound) : ConfigurationValidation.range($0, range)
        }
        self.init(path, defaultValue, check: check, doc.replacing("{range}", with: text))
    }
}

/// A key of any type, for what treats all keys alike: the file's parser, the environment's
/// names, the documentation.
protocol AnyConfigurationKey: Sendable {
    var path: String { get }
    var kind: ConfigurationKind { get }
    var defaultConfigurationValue: ConfigurationValue? { get }
    var documentedDefault: String { get }
    var doc: String { get }
    /// What the key's own check says of its default (nil: fine, or no default).
    var defaultProblem: String? { get }
    /// The value `values` give it, checked (nil: unset, or refused).
    func effectiveValue(in values: ConfigurationValues) -> ConfigurationValue?
}

extension AnyConfigurationKey {
    /// `mqtt.tls.ca_file` → `NOISECLOCK_MQTT_TLS_CA_FILE`.
    var environmentVariable: String {
        "NOISECLOCK_" + path.uppercased().map { $0 == "." ? "_" : String($0) }.joined()
    }
}

/// A type a key's value can have: how the file gives it (already typed by the parser) and how
/// an environment variable's text reads as it.
protocol ConfigurationType: Sendable {
    static var kind: ConfigurationKind { get }
    init?(_ value: ConfigurationValue)
    init?(environment text: String)
    var configurationValue: ConfigurationValue { get }
    /// The value as docs/configuration.md writes it (inside backticks).
    var documented: String { get }
}

extension String: ConfigurationType {
    static var kind: ConfigurationKind { .string }
    init?(_ value: ConfigurationValue) {
        guard case .string(let text) = value else { return nil }
        self = text
    }
    init?(environment text: String) { self = text }
    var configurationValue: ConfigurationValue { .string(self) }
    /// Quoted where YAML would read the bare text as a number or a boolean.
    var documented: String { Int(self) != nil || Double(self) != nil ? "\"\(self)\"" : self }
}

extension Int: ConfigurationType {
    static var kind: ConfigurationKind { .integer }
    init?(_ value: ConfigurationValue) {
        guard case .integer(let number) = value else { return nil }
        self = number
    }
    /// As `Int` reads it: `+5` yes, ` 5` or `0x5` no.
    init?(environment text: String) {
        guard let number = Int(text) else { return nil }
        self = number
    }
    var configurationValue: ConfigurationValue { .integer(self) }
    var documented: String { String(self) }
}

extension Double: ConfigurationType {
    static var kind: ConfigurationKind { .number }
    init?(_ value: ConfigurationValue) {
        switch value {
        case .number(let number): self = number
        case .integer(let number): self = Double(number)
        default: return nil
        }
    }
    init?(environment text: String) {
        guard let number = Double(text), number.isFinite else { return nil }
        self = number
    }
    var configurationValue: ConfigurationValue { .number(self) }
    var documented: String { String(self) }
}

/// A list of entries (`buttons:`), each checked by the code that reads it. From the environment:
/// a JSON array.
struct ConfigurationList: ConfigurationType, Equatable {
    var entries: [JSONValue]

    init(_ entries: [JSONValue]) { self.entries = entries }

    static var kind: ConfigurationKind { .entries }
    init?(_ value: ConfigurationValue) {
        guard case .entries(let entries) = value else { return nil }
        self.entries = entries
    }
    init?(environment text: String) {
        guard let parsed = try? JSONParser().parse(text), let entries = parsed.arrayValue else { return nil }
        self.entries = entries
    }
    var configurationValue: ConfigurationValue { .entries(entries) }
    var documented: String { entries.isEmpty ? "[]" : JSONValue.array(entries).serialized }
}

extension ConfigurationKey where Value == Double {
    /// A number key allowed only within `range`; its doc says the range where it writes `{range}`.
    init(_ path: String, _ defaultValue: Double, range: ClosedRange<Double>, _ doc: String) {
        let text = "\(range.lowerBound.formatted)–\(range.upperBound.formatted)"
        let check: @Sendable (Double) -> String? = {
            range.contains($0) ? nil : "must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted), got \($0.formatted)"
        }
        self.init(path, defaultValue, check: check, doc.replacing("{range}", with: text))
    }
}

extension Double {
    /// `1` for 1.0, `0.35` for 0.35: as a person writes it in the file.
    fileprivate var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}

extension Bool: ConfigurationType {
    static var kind: ConfigurationKind { .boolean }
    init?(_ value: ConfigurationValue) {
        guard case .boolean(let flag) = value else { return nil }
        self = flag
    }
    /// true/false, yes/no or 1/0, in any case.
    init?(environment text: String) {
        switch text.lowercased() {
        case "true", "yes", "1": self = true
        case "false", "no", "0": self = false
        default: return nil
        }
    }
    var configurationValue: ConfigurationValue { .boolean(self) }
    var documented: String { String(self) }
}

extension [String]: ConfigurationType {
    static var kind: ConfigurationKind { .list }
    init?(_ value: ConfigurationValue) {
        guard case .list(let items) = value else { return nil }
        self = items
    }
    /// Comma-separated (`a.lan, b.lan`); spaces around items and empty items dropped.
    init?(environment text: String) {
        self = text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
    var configurationValue: ConfigurationValue { .list(self) }
    var documented: String { "[" + joined(separator: ", ") + "]" }
}
