import NoiseClockCore
import NoiseClockWeb

// `NodeEffect.editSettings`, carried out on the node's loop: the only place a running node
// changes `settings.json` (a restore's files aside, which the loop writes as state files).
extension SettingsAPI {
    /// Writes the change and returns the answer for the waiting connection (nil for a broker
    /// trial's end, which no one waits for). Every HTTP answer is the one the web thread used to give.
    func carryOut(_ edit: SettingsEdit) -> (id: UInt64, answer: HTTPResponse)? {
        switch edit {
        case .brokerConnected(let generation):
            broker?.settle(generation, writer: writer)
            return nil
        case .request(let id, let command, let body, let requestID, let via):
            let request = WebCommandRequest(name: .web(command), body: body, requestID: requestID)
            return (id, answer(request, via: via))
        }
    }

    private func answer(_ request: WebCommandRequest, via: String) -> HTTPResponse {
        guard case .web(let command) = request.name else { return Self.notOffered(request) }
        switch command {
        case .settings: return change(request)
        case .settingsReset: return reset(request)
        case .setupDone: return SetupDone.answer(request, writer: writer)
        case .settingsConfirm: return web?.confirm(request, via: via, writer: writer) ?? Self.notOffered(request)
        case .audioTest, .mqttTest, .restore, .restart: return Self.notOffered(request)
        }
    }

    /// A command this node does not offer (no settings, no web address trial).
    static func notOffered(_ request: WebCommandRequest) -> HTTPResponse {
        request.answer(.failure(CommandError(.unknownCommand, "\(request.name.rawValue) is not offered here")))
    }
}

extension SettingsEdit {
    /// `request` for the loop: the web server's thread hands every change of `settings.json` on.
    static func handedOn(_ request: WebCommandRequest, id: UInt64, via: String) -> SettingsEdit? {
        guard case .web(let command) = request.name else { return nil }
        return .request(id: id, command: command, body: request.body, requestID: request.requestID, via: via)
    }
}
