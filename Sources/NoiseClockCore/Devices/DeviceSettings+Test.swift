/// `devices/test` `{"kind": "light" | "shaker"}`, answered by the devices' bindings: the device of
/// that kind is asked for its state (a query that changes nothing, `FeatureEffect.testDevice`);
/// the machine answers with its word, or `unconfirmed` after 5 s (`DeviceProbes`).
extension DeviceSettings {
    func apply(_ command: DevicesCommand, _ payload: CommandPayload, output: inout FeatureOutput) throws(CommandError) -> JSONValue {
        switch command {
        case .test:
            let kinds = DeviceList.kinds.map { $0.key }
            let usage = "devices/test takes {\"kind\": \"\(kinds.joined(separator: "\" | \""))\"}"
            guard case .json(.object(let object)) = payload, let kind = object["kind"]?.stringValue else {
                throw .invalidField("kind", usage)
            }
            if let unknown = object.keys.first(where: { $0 != "kind" && $0 != "request_id" }) {
                throw .invalidField(String(unknown.prefix(64)), "unknown field \"\(unknown.prefix(64))\"; \(usage)")
            }
            guard kinds.contains(kind) else { throw .invalidField("kind", usage) }
            guard let endpoint = self[kind] else { throw CommandError(.notFound, "no \(kind) is configured (devices.\(kind).topic)") }
            output.effects.append(.testDevice(kind: kind, endpoint: endpoint))
            return .null
        }
    }
}
