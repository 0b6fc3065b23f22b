#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NoiseClockCore

// Mail from the node: answers, snapshots and events, delivered on the server thread.
extension WebServer {
    func deliverMail() {
        let (items, overflowed) = mailbox.withLock { box -> ([Mail], Bool) in
            defer {
                box.items = []
                box.overflowed = false
            }
            return (box.items, box.overflowed)
        }
        for mail in items {
            switch mail {
            case .observation(let observation):
                state.health.update(observation)
                // Formatted only when a stream is open (most nodes have no browser attached).
                let streams = state.connections.values.filter { $0.phase == .streaming }
                guard !streams.isEmpty else { continue }
                let event = WebStateView.event(observation)
                for connection in streams { enqueue(event, to: connection) }
            case .snapshot(let id, let entries):
                snapshotArrived(id, entries)
            case .reply(let id, let response):
                guard state.pendingCommands.removeValue(forKey: id) != nil, let connection = state.connections[id] else { continue }
                answer(connection, WebRouter.commandResponse(response))
            case .answer(let id, let response):
                guard state.pendingCommands.removeValue(forKey: id) != nil, let connection = state.connections[id] else { continue }
                answer(connection, response)
            case .listen(let addresses):
                listen(addresses)
            case .access(let token):
                let router = state.router
                state.router = WebRouter(gate: AccessGate(token: token), site: router.site, locale: router.locale, hosts: router.hosts)
            }
        }
        if overflowed {
            logger.warning("web app fell behind the node; closing the event streams (browsers reconnect)")
            for connection in state.connections.values where connection.isStream { drop(connection) }
        }
    }

    func snapshotArrived(_ id: UInt64, _ entries: [Observation]) {
        guard let pending = state.pendingSnapshots.removeValue(forKey: id) else { return }
        guard let connectionID = pending.connection else {
            for entry in entries { state.health.update(entry) }
            return
        }
        guard let connection = state.connections[connectionID] else { return }
        switch connection.phase {
        case .waiting:
            answer(connection, HTTPResponse(status: 200, headers: [("Content-Type", "application/json")],
                                            body: WebStateView.stateObject(entries, node: options.node)))
        case .streamStarting(let expected) where expected == id:
            connection.phase = .streaming
            connection.deadline = clock() + options.keepAliveMilliseconds
            let state = entries.flatMap(WebStateView.event)
            connection.stateBytes = state.count
            enqueue(state, to: connection)
        default:
            break
        }
    }

    func enqueue(_ bytes: [UInt8], to connection: WebConnection) {
        guard connection.output.count + bytes.count <= options.streamBufferLimit + connection.stateBytes else {
            logger.notice("event stream closed: the client reads too slowly", metadata: ["address": "\(connection.address)"])
            drop(connection)
            return
        }
        connection.output += bytes
        connection.deadline = clock() + options.keepAliveMilliseconds
        flush(connection)
    }
}
