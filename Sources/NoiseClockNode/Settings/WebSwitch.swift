import Logging
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
import NoiseClockWeb
import Synchronization

/// A change of `web.port`, `web.host` or `web.auth` from the web app, as a screen's resolution
/// changes: it takes effect at once (the server listens on the new address too, with the new
/// access), and goes back by itself unless `POST /api/settings/confirm` comes through the new
/// address within `limitSeconds` (timed on the monotonic clock and on the node's, which tests
/// move). Confirmed, the old address closes; not, the new one does (docs/web.md, "No lock-out").
/// `settings.json` keeps the old values until the confirmation: a node restarted meanwhile comes
/// back at the address that worked. Every change and the confirmation come on the node's loop,
/// whose writer this gives the keys to keep (no file of its own, no write on a watching thread).
final class WebSwitch: Sendable {
    static let keys: Set<String> = ["web.port", "web.host", "web.auth"]
    static let limitSeconds: Int64 = 60

    struct Trial: Sendable {
        var target: NodeConfiguration.Web
        var token: String?
        var serial: Int
        var startedAt: ContinuousClock.Instant
        var startedOnNodeClock: Instant
        /// The keys' values in `settings.json` before the trial and as changed (nil: not there).
        var previous: [String: JSONValue?]
        var wanted: [String: JSONValue?]
    }

    struct State: Sendable {
        var good: NodeConfiguration.Web
        var goodToken: String?
        var trial: Trial?
        var serial = 0
        /// The last trial's end, for `GET /api/settings`.
        var outcome: JSONValue?
    }

    let server = Mutex<WebServer?>(nil)
    let clock: NodeClock
    /// Tells `node.lock` where the web app listens now (`noiseclock web-url`, `restore`).
    let record: @Sendable (NodeConfiguration.Web) -> Void
    let logger: Logger
    private let state: Mutex<State>
    /// The trials' watching threads, joined at shutdown (`JobThreadsService`).
    let trials = JobThreads(name: "settings-trial")

    init(running: NodeConfiguration, token: String?, clock: NodeClock, logger: Logger,
         record: @escaping @Sendable (NodeConfiguration.Web) -> Void) {
        self.clock = clock
        self.record = record
        self.logger = logger
        state = Mutex(State(good: running.web, goodToken: token))
    }

    static func address(_ web: NodeConfiguration.Web) -> WebServer.Address { WebServer.Address(host: web.host, port: web.port) }

    /// Where to listen during a trial: the old address and the new one, or the new one alone when
    /// only the host changes (`0.0.0.0:8080` cannot be bound beside `127.0.0.1:8080`).
    static func addresses(from good: NodeConfiguration.Web, to target: NodeConfiguration.Web) -> [WebServer.Address] {
        let old = address(good)
        let new = address(target)
        return old == new ? [old] : old.port == new.port ? [new] : [old, new]
    }

    static func same(_ one: NodeConfiguration.Web, _ other: NodeConfiguration.Web) -> Bool {
        one.host == other.host && one.port == other.port && one.auth == other.auth
    }

    /// Called on the node's loop after a change was saved: a new address or access is put on trial.
    func changed(to configuration: NodeConfiguration, before: [String: JSONValue], after: [String: JSONValue], writer: SettingsWriter) {
        guard Self.keys.contains(where: { before[$0] != after[$0] }) else { return }
        let target = configuration.web
        guard let server = server.withLock({ $0 }) else { return }
        let token: String?
        do {
            token = try NodeWeb.token(target)
        } catch {
            logger.error("web app: the new access cannot be used", metadata: ["error": "\(error)"])
            return
        }
        if let refused = refusal(of: target, before: before, writer: writer) {
            logger.warning("web app: the new address cannot be used; nothing changed", metadata: ["reason": "\(refused)"])
            return
        }
        let started = state.withLock { state -> Trial? in
            guard !Self.same(target, state.trial?.target ?? state.good) else { return nil }
            state.serial += 1
            if Self.same(target, state.good) {
                // Changed back during a trial: nothing left to confirm.
                state.trial = nil
                state.outcome = nil
                server.listen(on: [Self.address(state.good)])
                server.setAccess(token: state.goodToken)
                return nil
            }
            let previous = state.trial?.previous ?? Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, before[$0]) })
            let trial = Trial(target: target, token: token, serial: state.serial, startedAt: .now, startedOnNodeClock: clock.now(),
                              previous: previous, wanted: Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, after[$0]) }))
            state.trial = trial
            server.listen(on: Self.addresses(from: state.good, to: target))
            server.setAccess(token: token)
            return trial
        }
        guard let started else { return }
        keep(started.previous, writer: writer)
        logger.notice("web app: new address on trial; confirm from it within \(Self.limitSeconds) s", metadata: [
            "address": "\(Self.address(target))", "auth": "\(target.auth.rawValue)",
        ])
        // No thread to watch the trial (the process is out of them, or stopping): back at once, never a lock-out.
        let watched = (try? trials.start { [self] in watch(started.serial) }) ?? false
        if !watched { revert(started) }
    }

    /// A new port that cannot be listened on (another program holds it): no trial, the outcome
    /// `failed` at once, and `settings.json` back to the web keys it held (nil: try it).
    private func refusal(of target: NodeConfiguration.Web, before: [String: JSONValue], writer: SettingsWriter) -> String? {
        let held = state.withLock { state in [state.good.port] + (state.trial.map { [$0.target.port] } ?? []) }
        // A port this server listens on already is ours (only the host or the access changes).
        guard !held.contains(target.port), let problem = WebServer.listenProblem(Self.address(target)) else { return nil }
        let previous = state.withLock { state -> [String: JSONValue?] in
            let reason = "\(problem); still at \(NodeWeb.baseURL(state.trial?.target ?? state.good))"
            state.outcome = ["state": "failed", "address": .string(NodeWeb.baseURL(target)), "reason": .string(reason)]
            return state.trial?.previous ?? Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, before[$0]) })
        }
        keep(previous, writer: writer)
        return problem
    }

    /// `{"state": "pending", "address", "seconds_left"}` during a trial; after it `confirmed` or
    /// `reverted` (with `reason`), or `failed` (with `reason`) when it could not start; nil before any change.
    var status: JSONValue? {
        state.withLock { state in
            guard let trial = state.trial else { return state.outcome }
            let left = max(0, Self.limitSeconds * 1000 - elapsedMilliseconds(trial))
            return ["state": "pending", "address": .string(NodeWeb.baseURL(trial.target)), "seconds_left": .int((left + 999) / 1000)]
        }
    }

    /// `POST /api/settings/confirm`, which must come through the new address (`via`), with an
    /// empty body or `{"request_id": …}` (anything else is refused and confirms nothing). On the
    /// node's loop: the keys are in `settings.json` (through `writer`) before the answer.
    func confirm(_ request: WebCommandRequest, via: String, writer: SettingsWriter) -> HTTPResponse {
        if let refusal = request.refusalUnlessEmpty() { return refusal }
        let answer = state.withLock { state -> Result<(JSONValue, Trial), CommandError> in
            guard let trial = state.trial else {
                return .failure(CommandError(.notFound, "nothing to confirm: no change of web.port, web.host or web.auth is waiting"))
            }
            let new = Self.address(trial.target)
            guard new == Self.address(state.good) || via == new.description else {
                return .failure(.invalidField("address", "confirm from the new address, \(NodeWeb.baseURL(trial.target))"))
            }
            state.good = trial.target
            state.goodToken = trial.token
            state.trial = nil
            let outcome: JSONValue = ["state": "confirmed", "address": .string(NodeWeb.baseURL(trial.target))]
            state.outcome = outcome
            return .success((outcome, trial))
        }
        switch answer {
        case .failure(let error):
            return request.answer(.failure(error))
        case .success(let (outcome, trial)):
            let web = trial.target
            server.withLock { $0 }?.listen(on: [Self.address(web)])
            keep(trial.wanted, writer: writer)
            record(web)
            logger.notice("web app: new address confirmed", metadata: ["address": "\(Self.address(web))"])
            return request.answer(.success(outcome))
        }
    }

    private func elapsedMilliseconds(_ trial: Trial) -> Int64 {
        let monotonic = (ContinuousClock.now - trial.startedAt).components
        let real = monotonic.seconds * 1000 + monotonic.attoseconds / 1_000_000_000_000_000
        return max(real, clock.now().milliseconds - trial.startedOnNodeClock.milliseconds)
    }

    private func watch(_ serial: Int) {
        while true {
            TrialThread.sleep(milliseconds: 100)
            // The node stops: `settings.json` still holds the address that worked.
            if trials.isStopping { return }
            guard let trial = state.withLock({ $0.trial }), trial.serial == serial else { return }
            if elapsedMilliseconds(trial) >= Self.limitSeconds * 1000 {
                revert(trial)
                return
            }
        }
    }

    /// Back to the address and access that worked; the keys back in `settings.json`.
    private func revert(_ trial: Trial) {
        let good = state.withLock { state -> (NodeConfiguration.Web, String?)? in
            guard state.trial?.serial == trial.serial else { return nil }
            state.trial = nil
            let reason = "not confirmed from \(NodeWeb.baseURL(trial.target)) within \(Self.limitSeconds) s; back to \(NodeWeb.baseURL(state.good))"
            state.outcome = ["state": "reverted", "address": .string(NodeWeb.baseURL(state.good)), "reason": .string(reason)]
            return (state.good, state.goodToken)
        }
        guard let (web, token) = good else { return }
        if let server = server.withLock({ $0 }) {
            server.listen(on: [Self.address(web)])
            server.setAccess(token: token)
        }
        logger.warning("web app: the new address was not confirmed; reverted", metadata: [
            "address": "\(Self.address(trial.target))", "back_to": "\(Self.address(web))",
        ])
        // settings.json has kept the old values (`keep(previous)` at the start): nothing to undo there.
    }

    /// The keys as `values` in `settings.json`.
    private func keep(_ values: [String: JSONValue?], writer: SettingsWriter) {
        if let failed = writer.put(values) {
            logger.error("web app: could not write settings.json", metadata: ["error": "\(failed)"])
        }
    }
}
