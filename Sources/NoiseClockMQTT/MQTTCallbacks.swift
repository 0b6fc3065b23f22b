import CMosquitto
import Glibc

// libmosquitto calls these on the client's network thread. They are file-scope functions (not
// closures) so they carry no actor isolation, recover their context from `userdata`, and only
// record state or hand an event to the owner's handler.

func mqttOnConnect(_ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ rc: Int32, _ flags: Int32, _ props: OpaquePointer?) {
    guard let userdata else { return }
    Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue().didConnect(code: rc)
}

func mqttOnDisconnect(_ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ rc: Int32, _ props: OpaquePointer?) {
    guard let userdata else { return }
    Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue().didDisconnect(code: rc)
}

func mqttOnSubscribe(
    _ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ mid: Int32, _ count: Int32, _ granted: UnsafePointer<Int32>?,
    _ props: OpaquePointer?
) {
    guard let userdata else { return }
    Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue().didSubscribe(messageID: mid)
}

func mqttOnMessage(
    _ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?, _ props: OpaquePointer?
) {
    guard let userdata, let message, let cTopic = message.pointee.topic else { return }
    let client = Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue()
    let topic = String(decoding: UnsafeRawBufferPointer(start: cTopic, count: strlen(cTopic)), as: UTF8.self)
    let length = Int(message.pointee.payloadlen)
    // The topic's cap first: an oversized payload is never copied (nor parsed, nor queued).
    var oversize: Int?
    if let cap = client.payloadCap?(topic), length > cap.bytes {
        guard cap.answered else { return client.droppedOversize(topic: topic, bytes: length, cap: cap.bytes) }
        oversize = length
    }
    var payload: [UInt8] = []
    if length > 0, oversize == nil, let raw = message.pointee.payload {
        payload = Array(UnsafeRawBufferPointer(start: raw, count: length))
    }
    var responseTopic: String?
    var correlation: [UInt8]?
    if let props {
        var value: UnsafeMutablePointer<CChar>?
        if mosquitto_property_read_string(props, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &value, false) != nil, let value {
            responseTopic = String(cString: value)
            free(value)
        }
        var data: UnsafeMutableRawPointer?
        var dataLength: UInt16 = 0
        if mosquitto_property_read_binary(props, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &data, &dataLength, false) != nil, let data {
            correlation = Array(UnsafeRawBufferPointer(start: data, count: Int(dataLength)))
            free(data)
        }
    }
    var received = MQTTMessage(
        topic: topic, payload: payload, retain: message.pointee.retain, responseTopic: responseTopic, correlationData: correlation
    )
    received.oversizeBytes = oversize
    client.didReceive(received)
}

/// libmosquitto's own log; only error lines are kept, to explain TLS failures. (Its debug lines
/// are never forwarded: nothing of the CONNECT packet reaches our log.)
func mqttOnLog(_ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ level: Int32, _ text: UnsafePointer<CChar>?) {
    guard let userdata, let text else { return }
    Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue().libraryLogged(level: level, String(cString: text))
}
