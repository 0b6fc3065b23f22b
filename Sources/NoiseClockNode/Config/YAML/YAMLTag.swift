/// YAML 1.1 tags and the implicit typing of plain scalars: the rules and their order are those of
/// Yams' `Resolver.default` (which the loader used before), so `5` is an int, `yes` a bool, `~`
/// and an empty value null, and anything quoted a string. `ConfigurationYAMLTagTests` checks
/// every rule against Yams' regular expressions.
enum YAMLTag {
    static let str = "tag:yaml.org,2002:str"
    static let int = "tag:yaml.org,2002:int"
    static let float = "tag:yaml.org,2002:float"
    static let bool = "tag:yaml.org,2002:bool"
    static let null = "tag:yaml.org,2002:null"
    static let merge = "tag:yaml.org,2002:merge"
    static let timestamp = "tag:yaml.org,2002:timestamp"
    static let value = "tag:yaml.org,2002:value"
    static let map = "tag:yaml.org,2002:map"
    static let seq = "tag:yaml.org,2002:seq"
    /// `!`: "not specific", which means the kind's default tag.
    static let nonSpecific = "!"

    /// The tag of a plain scalar written without a tag; the first rule that matches wins.
    /// Compared byte by byte, as the regular expressions did (Swift's `==` on strings would also
    /// match canonically equivalent non-ASCII text).
    static func resolve(plain text: String) -> String {
        let bytes = Array(text.utf8)
        if boolWords.contains(bytes) { return bool }
        if YAMLScalarPattern.isInt(bytes) { return int }
        if YAMLScalarPattern.isFloat(bytes) { return float }
        if bytes == Array("<<".utf8) { return merge }
        if nullWords.contains(bytes) { return null }
        if YAMLScalarPattern.isTimestamp(bytes) { return timestamp }
        if bytes == Array("=".utf8) { return value }
        return str
    }

    private static let boolWords: Set<[UInt8]> = Set([
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ].map { Array($0.utf8) })

    private static let nullWords: Set<[UInt8]> = Set(["~", "null", "Null", "NULL", ""].map { Array($0.utf8) })
}
