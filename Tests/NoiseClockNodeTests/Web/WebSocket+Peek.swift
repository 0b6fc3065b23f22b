import Glibc

extension WebSocket {
    enum Peek {
        case open
        case answered([UInt8])
        case closed
    }

    /// Whether the server answered or closed, without waiting.
    func peek() -> Peek {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { return .answered(Array(buffer.prefix(count))) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .open : .closed
    }
}
