/// One broker of `mqtt.hosts`: `host:port`, or `[v6 address]:port`.
public struct BrokerAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port), !host.isEmpty,
              !host.contains(where: { $0 == " " || $0 == "/" }), host.contains(":") == text.hasPrefix("[")
        else { return nil }
        self.init(host: host, port: port)
    }
}
