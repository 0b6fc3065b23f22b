import NoiseClockCore
@testable import NoiseClockNode
import NoiseClockWeb

/// `POST /api/settings` and `/api/settings/reset` with a body, as the web server hands them on:
/// looked up in the command table, the body's `request_id` read once (`WebCommandRequest`).
extension SettingsAPI {
    func change(_ body: [UInt8]) -> HTTPResponse {
        change(WebCommandRequest(name: .web(.settings), body: body, requestID: CommandPayload.requestID(in: body)))
    }

    func reset(_ body: [UInt8]) -> HTTPResponse {
        reset(WebCommandRequest(name: .web(.settingsReset), body: body, requestID: CommandPayload.requestID(in: body)))
    }
}
