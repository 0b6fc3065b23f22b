import CMosquitto
import Glibc
import NoiseClockThreads
import Synchronization

/// An independent MQTT client that checks what `MQTTClient` does: plain libmosquitto (none of the
/// adapter's code), recording messages with their v5 properties, and waiting for the broker's
/// acknowledgements (CONNACK, SUBACK, PUBACK) instead of for time.
final class Observer: @unchecked Sendable {
    // @unchecked Sendable: `mosq` is used from the test and the loop thread only through calls
    // libmosquitto allows from several threads once `mosquitto_threaded_set(true)` is on;
    // everything else is immutable or in a Sendable recorder/mutex.
    struct Received: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        var qos: Int32
        var retain: Bool
        var responseTopic: String?
        var correlationData: [UInt8]?
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    enum Ack: Sendable, Equatable {
        case connected(code: Int32)
        case subscribed(mid: Int32, granted: Int32)
        case published(mid: Int32)
    }

    let messages = Recorder<Received>()
    let acks = Recorder<Ack>()
    let v5: Bool
    private let mosq: OpaquePointer
    private let closing = Mutex(false)
    private let thread = DedicatedThread(name: "test-observer")

    /// Connects to the broker on `port` and returns once every subscription is acknowledged.
    init(port: Int, subscriptions: [String] = [], v5: Bool = true, id: String = "observer-\(UInt32.random(in: 0...UInt32.max))") async throws {
        mosquitto_lib_init()
        self.v5 = v5
        guard let handle = mosquitto_new(id, true, nil) else { throw TestFailure("mosquitto_new failed") }
        mosq = handle
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)
        mosquitto_threaded_set(mosq, true)
        mosquitto_connect_v5_callback_set(mosq, observerOnConnect)
        mosquitto_subscribe_v5_callback_set(mosq, observerOnSubscribe)
        mosquitto_publish_v5_callback_set(mosq, observerOnPublish)
        mosquitto_message_v5_callback_set(mosq, observerOnMessage)
        let rc = mosquitto_connect(mosq, "127.0.0.1", Int32(port), 30)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw TestFailure("observer cannot connect: \(rc)") }
        try thread.start { [self] in runLoop() }
        let ack = try await acks.first(timeout: 5, "CONNACK") { if case .connected = $0 { true } else { false } }
        guard ack == .connected(code: 0) else { throw TestFailure("observer refused: \(ack)") }
        for topic in subscriptions { try await subscribe(topic) }
    }

    /// Subscribes at QoS 1 and returns once the broker has acknowledged it.
    func subscribe(_ topic: String) async throws {
        var id: Int32 = 0
        guard mosquitto_subscribe(mosq, &id, topic, 1) == MOSQ_ERR_SUCCESS.rawValue else { throw TestFailure("subscribe \(topic)") }
        let mid = id
        let ack = try await acks.first(timeout: 5, "SUBACK for \(topic)") {
            if case .subscribed(mid, _) = $0 { true } else { false }
        }
        guard ack == .subscribed(mid: mid, granted: 1) else { throw TestFailure("subscription to \(topic) refused: \(ack)") }
    }

    /// Publishes; at QoS 1 returns once the broker has acknowledged the message.
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 1, retain: Bool = false,
                 responseTopic: String? = nil, correlationData: [UInt8]? = nil) async throws {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let responseTopic {
            mosquitto_property_add_string(&properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), responseTopic)
        }
        if let correlationData {
            _ = correlationData.withUnsafeBytes {
                mosquitto_property_add_binary(&properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), $0.baseAddress, UInt16($0.count))
            }
        }
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes {
            mosquitto_publish_v5(mosq, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain, properties)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw TestFailure("observer publish to \(topic): \(rc)") }
        let sent = mid
        if qos > 0 { try await acks.first(timeout: 5, "PUBACK for \(topic)") { $0 == .published(mid: sent) } }
    }

    func publish(_ topic: String, _ text: String, qos: Int32 = 1, retain: Bool = false) async throws {
        try await publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }

    func texts(on topic: String) -> [String] { messages.items.filter { $0.topic == topic }.map(\.text) }

    /// Disconnects cleanly and stops the loop thread. Teardown order: DISCONNECT (sent by the
    /// loop), join the loop thread, destroy the handle.
    func close() {
        closing.withLock { $0 = true }
        thread.join()
    }

    deinit {
        close()
        mosquitto_destroy(mosq)
    }

    private func runLoop() {
        while !closing.withLock({ $0 }) {
            // A lost connection ends the observer: tests make a new one after a broker restart.
            guard mosquitto_loop(mosq, 50, 1) == MOSQ_ERR_SUCCESS.rawValue else { return }
        }
        mosquitto_disconnect(mosq)
        _ = mosquitto_loop(mosq, 50, 1)
    }

    fileprivate func record(_ ack: Ack) { acks.append(ack) }
    fileprivate func record(_ message: Received) { messages.append(message) }
}

// libmosquitto callbacks (the observer's loop thread): file-scope, they only record.

private func observer(_ userdata: UnsafeMutableRawPointer?) -> Observer? {
    userdata.map { Unmanaged<Observer>.fromOpaque($0).takeUnretainedValue() }
}

private func observerOnConnect(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ rc: Int32, _: Int32, _: OpaquePointer?) {
    observer(userdata)?.record(.connected(code: rc))
}

private func observerOnSubscribe(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ mid: Int32, _ count: Int32,
                                 _ granted: UnsafePointer<Int32>?, _: OpaquePointer?) {
    observer(userdata)?.record(.subscribed(mid: mid, granted: count > 0 ? granted?[0] ?? -1 : -1))
}

private func observerOnPublish(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ mid: Int32, _: Int32, _: OpaquePointer?) {
    observer(userdata)?.record(.published(mid: mid))
}

private func observerOnMessage(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?,
    _ props: OpaquePointer?) {
    guard let message, let topic = message.pointee.topic else { return }
    let payload = message.pointee.payload.map {
        Array(UnsafeRawBufferPointer(start: $0, count: Int(message.pointee.payloadlen)))
    } ?? []
    var responseTopic: String?
    var correlationData: [UInt8]?
    var text: UnsafeMutablePointer<CChar>?
    if mosquitto_property_read_string(props, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil, let text {
        responseTopic = String(cString: text)
        free(text)
    }
    var data: UnsafeMutableRawPointer?
    var length: UInt16 = 0
    if mosquitto_property_read_binary(props, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &data, &length, false) != nil, let data {
        correlationData = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
        free(data)
    }
    observer(userdata)?.record(Observer.Received(
        topic: String(cString: topic), payload: payload, qos: message.pointee.qos, retain: message.pointee.retain,
        responseTopic: responseTopic, correlationData: correlationData
    ))
}
