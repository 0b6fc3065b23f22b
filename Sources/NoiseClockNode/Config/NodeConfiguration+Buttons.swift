import NoiseClockCore

extension NodeConfiguration {
    /// `buttons:`: each entry read by core's rules; an error names the entry and its field
    /// (`buttons[1].input.key`).
    static func readButtons(_ values: ConfigurationValues) throws(ConfigurationError) -> [ButtonDefinition] {
        let key = ConfigurationKeys.table.buttons
        let entries = try values.required(key).entries
        var buttons: [ButtonDefinition] = []
        for (index, entry) in entries.enumerated() {
            let button: ButtonDefinition
            do {
                button = try ButtonDefinition(json: entry)
            } catch {
                let field = error.field.isEmpty ? "" : ".\(error.field)"
                throw values.error(key, at: "\(key.path)[\(index)]\(field)", error.message)
            }
            if buttons.contains(where: { $0.id == button.id }) {
                throw values.error(key, at: "\(key.path)[\(index)].id", "\"\(button.id)\" is given twice")
            }
            buttons.append(button)
        }
        return buttons
    }
}
