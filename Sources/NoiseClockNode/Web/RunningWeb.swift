import NoiseClockCore
import NoiseClockPlatform

/// The web app of the node that runs now, as it listens: the node writes it into `node.lock` at
/// its start, and the terminal's commands (`web-url`, `restore`) read it there. The configuration
/// alone can mislead them: a `web.port` saved in the web app applies at the next start, and an
/// environment variable the node was started with is not in the terminal's environment.
enum RunningWeb {
    /// The record the node leaves in `node.lock`.
    static func record(_ web: NodeConfiguration.Web) -> [UInt8] {
        let running: JSONValue = [
            "web": ["enabled": .bool(web.enabled), "host": .string(web.host), "port": .int(Int64(web.port)), "auth": .string(web.auth.rawValue)],
        ]
        return running.bytes
    }

    /// `configuration.web` as the running node has it (its address, whether it is on, its
    /// access), or as configured when no node runs in that `state_dir`.
    static func of(_ configuration: NodeConfiguration) -> NodeConfiguration.Web {
        var web = configuration.web
        guard let bytes = StateDirectoryLock.holderRecord(directory: configuration.stateDirectory),
              let running = try? JSONParser(maxDepth: 8).parse(bytes)["web"] else { return web }
        if let enabled = running["enabled"]?.boolValue { web.enabled = enabled }
        if let host = running["host"]?.stringValue { web.host = host }
        if let port = running["port"]?.intValue { web.port = port }
        if let auth = running["auth"]?.stringValue.flatMap(NodeConfiguration.Web.Auth.init(rawValue:)) { web.auth = auth }
        return web
    }
}
