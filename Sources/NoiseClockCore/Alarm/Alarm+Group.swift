/// Alarm groups (v1.2): the field's rule.
extension Alarm {
    /// null, or 1–32 of `a-z`, `0-9`, `_`, `-` (it becomes an MQTT topic level).
    static func parseGroup(_ value: JSONValue) throws(CommandError) -> String? {
        if value.isNull { return nil }
        guard let text = value.stringValue, isValidGroup(text) else {
            throw .invalidField("group", "group must be null or 1–32 of a-z, 0-9, _ and -")
        }
        return text
    }

    public static func isValidGroup(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 32
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D }
    }
}
