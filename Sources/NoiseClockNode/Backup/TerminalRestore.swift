import NoiseClockCore
import NoiseClockPlatform

/// `noiseclock restore FILE --config F`: the backup checked whole first (a refusal names the
/// entry and changes nothing), then, with no node running (no one holds `node.lock`), the state
/// files written here; with the node running, the backup goes through its web API
/// (`POST /api/restore`, with its token), so the node reloads it at once and its own next write
/// cannot undo it. A running node whose web app is off is refused: stop it first.
public enum TerminalRestore {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        /// 2: the configuration; 1: the backup or the node refused, or a file could not be written.
        public let exitCode: Int32
    }

    /// What was done, as one line for the terminal.
    public static func run(_ bytes: [UInt8], configPath: String, environment: [String: String]) async throws(Failure) -> String {
        let configuration: NodeConfiguration
        do {
            configuration = try await NodeConfiguration.load(path: configPath, environment: environment).configuration
        } catch {
            throw Failure(description: error.description, exitCode: ConfigurationError.exitCode)
        }
        let contents: Backup.Contents
        switch Backup.read(bytes) {
        case .success(let read): contents = read
        case .failure(let refusal): throw Failure(description: "restore refused: \(refusal.commandError.message); nothing was changed", exitCode: 1)
        }
        if !contents.settings.isEmpty,
           let problem = WebSettings.restoreProblem(contents.settings, configPath: configPath, environment: environment) {
            throw Failure(description: "restore refused: \(problem.message); nothing was changed", exitCode: 1)
        }
        let directory = configuration.stateDirectory
        let summary = contents.counts.pairs.map { "\($0.value.intValue ?? 0) \($0.key)" }.joined(separator: ", ")
        do {
            // As the node's start makes it (a node never started yet).
            try StateStore(directory: directory).prepare()
            if let lock = try StateDirectoryLock.acquire(directory: directory) {
                try withExtendedLifetime(lock) { () throws(PlatformError) in try StateBackup.write(contents, directory: directory) }
                return "restored \(summary) into \(directory); the node reads them when it starts"
            }
        } catch {
            throw Failure(description: "\(error.description)", exitCode: 1)
        }
        return try throughNode(contents: bytes, configuration: configuration, summary: summary)
    }

    /// The running node's web API does the restore (its answer says what was refused, if anything).
    static func throughNode(contents bytes: [UInt8], configuration: NodeConfiguration, summary: String) throws(Failure) -> String {
        // As the running node listens, not as its configuration now says (RunningWeb).
        let web = RunningWeb.of(configuration)
        guard web.enabled else {
            throw Failure(description: "the node is running (it holds \(configuration.stateDirectory)/\(StateDirectoryLock.fileName)) and its "
                            + "web app is off (web.enabled: false): stop it (sudo systemctl stop noiseclock), run noiseclock restore again, "
                            + "then start it; nothing was changed", exitCode: 1)
        }
        let token: String?
        do { token = try NodeWeb.token(web) } catch {
            throw Failure(description: error.description, exitCode: ConfigurationError.exitCode)
        }
        let host = LocalWebRequest.reachable(web.host)
        let reply: LocalWebRequest.Reply
        do {
            reply = try LocalWebRequest(host: host, port: web.port).post("/api/" + WebCommand.restore.rawValue, body: bytes, bearer: token)
        } catch {
            throw Failure(description: "the node is running but \(error.description); nothing was changed", exitCode: 1)
        }
        guard reply.status == 200 else {
            let answer = (try? JSONParser(maxDepth: 16).parse(reply.body))?["error"]?["message"]?.stringValue
                ?? String(decoding: reply.body.prefix(300), as: UTF8.self)
            throw Failure(description: "the node refused the restore (HTTP \(reply.status)): \(answer)", exitCode: 1)
        }
        return "restored \(summary) through the running node at \(host):\(web.port)"
    }
}
