import CMosquitto

/// Subscriptions changed while the client runs (`BoundSubscriptions`): the web app re-binds the
/// lamp, the shaker or an MQTT button, and their state topics follow without a reconnect.
extension MQTTClient {
    /// Subscribes to exactly `topics` for `group` from now on (and on every reconnect), dropping
    /// the group's earlier topics: at once while connected, else at the next connect. Callable
    /// from any thread, before `start` too.
    public func subscribe(group: String, topics: [String]) {
        bound.replace(group, with: topics, fixed: subscriptions) { added, removed in
            // Another thread's use of the handle: under `sending`, as a publish is.
            sending.withLock { _ in
                for topic in added {
                    let rc = subscribeOne(topic)
                    if rc != MOSQ_ERR_SUCCESS.rawValue {
                        logger.warning("subscribe failed (done again at the next connect)", metadata: [
                            "topic": "\(topic)", "error": "\(Self.describe(rc))",
                        ])
                    }
                }
                for topic in removed { _ = mosquitto_unsubscribe(mosq, nil, topic) }
            }
            logger.info("subscriptions changed", metadata: ["group": "\(group)", "added": "\(added)", "removed": "\(removed)"])
        }
    }

    /// The topics subscribed beside the fixed `subscriptions` (every group's).
    public var boundTopics: [String] { bound.topics }

    /// One SUBSCRIBE at QoS 1; v5: "retain as published", so the owner sees a command published
    /// with the retain flag as such while it is connected too (v3.1.1 brokers clear the flag on
    /// live delivery; only the copy sent at subscription time still carries it).
    func subscribeOne(_ topic: String, messageID: UnsafeMutablePointer<Int32>? = nil) -> Int32 {
        options.protocolVersion == .v5
            ? mosquitto_subscribe_v5(mosq, messageID, topic, 1, Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue), nil)
            : mosquitto_subscribe(mosq, messageID, topic, 1)
    }
}
