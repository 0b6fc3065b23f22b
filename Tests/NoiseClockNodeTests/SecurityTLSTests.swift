import Foundation
import Glibc
import NoiseClockMQTT
import Testing

extension ProofSuite.Surroundings {
    /// TLS and passwords against a real mosquitto: the right CA and password connect; a wrong one
    /// is one clear error line and quiet retries with back-off; the password never reaches the log.
    @Suite(.serialized) struct SecurityTLSTests {
        static let user = "clock"
        static let password = "pw-Zq8#not-in-logs"

        /// CA, server certificate for 127.0.0.1, a second (wrong) CA, and the broker's password file.
        final class PKI: @unchecked Sendable {
            let directory: URL
            init() throws {
                directory = try makeTemporaryDirectory(prefix: "pki")
                chmod(directory.path, 0o755)
                let d = directory.path
                let script = """
                    set -e
                    cd '\(d)'
                    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=NoiseClock Test CA' -keyout ca.key -out ca.crt
                    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=Wrong CA' -keyout wrong-ca.key -out wrong-ca.crt
                    openssl req -newkey rsa:2048 -nodes -subj '/CN=127.0.0.1' -keyout server.key -out server.csr
                    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext
                    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt
                    mosquitto_passwd -b -c passwd '\(SecurityTLSTests.user)' '\(SecurityTLSTests.password)'
                    # mosquitto drops root to its own user before reading these.
                    chmod 0644 ca.crt server.crt server.key passwd
                    printf '%s\\n' '\(SecurityTLSTests.password)' > client.pw
                    printf '%s\\n' 'wrong-password' > wrong.pw
                    chmod 0600 client.pw wrong.pw
                    """
                try run(script)
            }
            func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
            deinit { try? FileManager.default.removeItem(at: directory) }
        }

        /// A temporary directory holding mosquitto's password file `passwd` with one user, readable by
        /// the broker (it drops root to its own user before reading it); `then` runs there afterwards
        /// (more files for the test). The caller removes the directory.
        static func passwordDirectory(user: String, password: String, then more: String = "") throws -> URL {
            let directory = try makeTemporaryDirectory(prefix: "passwd")
            chmod(directory.path, 0o755)
            try run("""
                set -e
                cd '\(directory.path)'
                mosquitto_passwd -b -c passwd '\(user)' '\(password)'
                chmod 0644 passwd
                \(more)
                """)
            return directory
        }

        static func run(_ script: String) throws {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("pki-\(UUID().uuidString.prefix(6)).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let child = try ChildProcess(path: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"],
                logPath: log.path)
            let status = child.wait(timeout: 60)
            guard status == 0 else { throw TestFailure("PKI setup failed "
                + "(\(String(describing: status))): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")") }
        }

        func tlsBroker(_ pki: PKI) throws -> TestBroker {
            try TestBroker(extraConfig: """
                listener $PORT 127.0.0.1
                cafile \(pki.path("ca.crt"))
                certfile \(pki.path("server.crt"))
                keyfile \(pki.path("server.key"))
                allow_anonymous false
                password_file \(pki.path("passwd"))
                persistence false
                """)
        }

        func node(_ broker: TestBroker, ca: String, passwordFile: String) throws -> NodeProcess {
            try NodeProcess(brokerPort: broker.port, environment: [
                "NOISECLOCK_MQTT_TLS_CA_FILE": ca, "NOISECLOCK_MQTT_USERNAME": Self.user, "NOISECLOCK_MQTT_PASSWORD_FILE": passwordFile,
            ])
        }

        func watcher(_ broker: TestBroker, _ pki: PKI, topics: [String]) async throws -> RecordingClient {
            let options = MQTTOptions(
                host: "127.0.0.1", port: broker.port, clientID: "tls-watch-\(UUID().uuidString.prefix(6))",
                username: Self.user, password: Self.password, tls: .init(caFile: pki.path("ca.crt")), keepaliveSeconds: 10
            )
            let client = try RecordingClient(options: options, subscriptions: topics)
            try await client.waitConnected()
            return client
        }

        func assertNoSecret(_ log: String) {
            #expect(!log.contains(Self.password), "the password appears in the log")
            #expect(!log.contains("wrong-password"), "the (wrong) password appears in the log")
        }

        @Test func connectsWithTheRightCAAndPassword() async throws {
            let pki = try PKI()
            let broker = try tlsBroker(pki)
            let node = try node(broker, ca: pki.path("ca.crt"), passwordFile: pki.path("client.pw"))
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let client = try await watcher(broker, pki, topics: ["\(root)/#"])
            defer { client.shutdown() }
            try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
            client.publish("\(root)/style/set", #"{"request_id": "tls", "glow": 12}"#)
            let response = try await client.waitFor("\(root)/response", where: { $0.json?["request_id"] == "tls" })
            #expect(response.json?["ok"] == true)
            #expect(!node.log.contains("readable by group or others"), "0600 needs no warning")
            assertNoSecret(node.log)
        }

        @Test(arguments: ["wrong password", "wrong CA"])
        func aWrongCredentialIsOneErrorLineThenQuietRetries(_ fault: String) async throws {
            let pki = try PKI()
            let broker = try tlsBroker(pki)
            let node = fault == "wrong CA"
                ? try node(broker, ca: pki.path("wrong-ca.crt"), passwordFile: pki.path("client.pw"))
                : try node(broker, ca: pki.path("ca.crt"), passwordFile: pki.path("wrong.pw"))
            try node.start()
            // Log lines look like "<time> error noiseclock: retry_in_s=1.0 [NoiseClockMQTT] <message>".
            func level(_ line: Substring) -> Substring? { line.split(separator: " ").dropFirst().first }
            func retryLines() -> [Substring] {
                node.log.split(separator: "\n").filter { level($0) == "debug" && $0.contains("retry_in_s") }
            }
            // Two quiet retries logged (after the back-off of 1 then 2 s), however slow the machine.
            let deadline = Date().addingTimeInterval(30)
            while retryLines().count < 2 && Date() < deadline && node.isRunning {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(node.isRunning)
            let lines = node.log.split(separator: "\n")
            let mqttErrors = lines.filter { level($0) == "error" && $0.contains("[NoiseClockMQTT]") }
            let retries = retryLines()
            #expect(mqttErrors.count == 1, "\(fault): expected one error line, got \(mqttErrors.count):\n\(mqttErrors.joined(separator: "\n"))")
            // Quiet retries with a growing back-off (1, 2, 4 s ...), not a retry loop.
            let delays = retries.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("retry_in_s=") }.flatMap { Double($0.dropFirst("retry_in_s=".count)) }
            }
            #expect(retries.count >= 2, "\(fault): \(retries.count) debug retry lines in 30 s:\n\(retries.joined(separator: "\n"))")
            #expect(delays.count == retries.count && zip(delays, delays.dropFirst()).allSatisfy { $1 > $0 || $1 >= 30 },
                    "\(fault): the back-off does not grow: \(delays)")
            let expected = fault == "wrong CA" ? "certificate" : "authori"
            #expect(mqttErrors.first?.localizedCaseInsensitiveContains(expected) == true,
                "\(fault): the error should say why: \(mqttErrors.first ?? "none")")
            assertNoSecret(node.log)
        }

        /// `noiseclock fleet --config` connects as the node does (issue 31, 12): TLS, the password
        /// and `mqtt.hosts` whose first broker is down. Before, it took `mqtt.host` and `port` only
        /// (here the dead first host: exit 69), and neither the CA nor the hosts after the first.
        @Test func fleetConnectsAsTheNodesConfigurationSays() async throws {
            let pki = try PKI()
            let broker = try tlsBroker(pki)
            let node = try node(broker, ca: pki.path("ca.crt"), passwordFile: pki.path("client.pw"))
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let client = try await watcher(broker, pki, topics: ["\(root)/availability", "\(root)/alarm"])
            defer { client.shutdown() }
            try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
            try await client.waitFor("\(root)/alarm", timeout: 10, where: { $0.json?["ready"] != nil })
            let (down, alsoDown) = (try freeLoopbackPort(), try freeLoopbackPort())
            func config(_ hosts: [Int]) throws -> String {
                let file = pki.directory.appendingPathComponent("fleet-\(hosts.count)-\(hosts[0]).yaml")
                try """
                    node_id: fleet-reader
                    timezone: UTC
                    state_dir: \(pki.directory.appendingPathComponent("fleet-state").path)
                    mqtt:
                      hosts: [\(hosts.map { "\"127.0.0.1:\($0)\"" }.joined(separator: ", "))]
                      username: \(Self.user)
                      password_file: \(pki.path("client.pw"))
                      tls:
                        ca_file: \(pki.path("ca.crt"))
                    """.write(to: file, atomically: true, encoding: .utf8)
                return file.path
            }
            let (table, status) = try FleetTests.fleet(["--config", try config([down, broker.port])])
            #expect(status == 0 || status == 1, "\(status): \(table)")
            let row = table.split(separator: "\n").first { $0.hasPrefix(node.nodeID + " ") }
            #expect(row?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first == "online", "\(table)")
            assertNoSecret(table)

            // Every broker down: said at once, each by name.
            let started = ContinuousClock.now
            let (refused, refusedStatus) = try FleetTests.fleet(["--config", try config([down, alsoDown])])
            #expect(refusedStatus == 69)
            #expect(refused.contains("127.0.0.1:\(down)") && refused.contains("127.0.0.1:\(alsoDown)"), "\(refused)")
            #expect(ContinuousClock.now - started < .seconds(5), "every broker refused: \(refused)")
        }

        @Test func aPasswordFileOthersCanReadIsWarnedAbout() async throws {
            let pki = try PKI()
            let broker = try tlsBroker(pki)
            chmod(pki.path("client.pw"), 0o644)
            let node = try node(broker, ca: pki.path("ca.crt"), passwordFile: pki.path("client.pw"))
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let client = try await watcher(broker, pki, topics: ["\(root)/availability"])
            defer { client.shutdown() }
            try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
            let warnings = node.log.split(separator: "\n").filter { $0.contains("warning") && $0.contains("mqtt.password_file") }
            #expect(warnings.count == 1, "\(node.log)")
            #expect(warnings.first?.contains("chmod 600") == true)
            assertNoSecret(node.log)
        }
    }
}
