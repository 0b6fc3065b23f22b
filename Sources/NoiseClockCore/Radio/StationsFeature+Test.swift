/// `~/station/test`: a station's id (plain, or `{"id"}`) or `{"url"}`. The feature only names the
/// address to probe (`FeatureEffect.probeStation`); the machine starts the probe within its
/// limits (`StationProbes`) and answers, with the command's `request_id`, when it comes back.
extension StationsFeature {
    /// Refused in safe mode (stations are off, and a station may be what crashed the node);
    /// changes nothing.
    func test(_ payload: CommandPayload, output: inout FeatureOutput) throws(CommandError) -> JSONValue {
        guard !safeMode else { throw CommandError(.streamUnavailable, "safe mode: stations are off until it ends (~/safe_mode/exit)") }
        output.effects.append(.probeStation(url: try probeURL(payload)))
        return .null
    }

    /// The address a `station/test` payload names: `{"url"}` as given, or the station's by its id.
    func probeURL(_ payload: CommandPayload) throws(CommandError) -> String {
        if case .json(.object(let object)) = payload, let value = object["url"] {
            try ProgrammeFields.rejectUnknown(object, known: ["url"], ignored: ["request_id"])
            return try Station.url(value)
        }
        let id: String
        switch payload {
        case .plain(let text), .json(.string(let text)): id = text.lowercased()
        case .json(.object(let object)):
            try ProgrammeFields.rejectUnknown(object, known: ["id"], ignored: ["request_id"])
            guard let text = object["id"]?.stringValue else { throw .invalidField("id", "station/test takes a station id or {\"url\"}") }
            id = text.lowercased()
        default: throw .invalidField("id", "station/test takes a station id or {\"url\"}")
        }
        guard let station = station(id) else { throw Self.notFound(id) }
        return station.url
    }
}
