/// Reads one HTTP/1.x request from the bytes received so far, in two steps so that access can be
/// decided before any of a body is read: `head` (request line and headers, found by a scan that
/// resumes where the last one stopped, so a request dribbled a byte at a time costs linear time),
/// then the body of the declared length. Limits are checked as soon as they can be: an oversized
/// header block or a declared body over the limit is refused before the rest arrives. Chunked
/// bodies are not taken (browsers and curl send a length).
public enum HTTPRequestParser {
    public static let maximumHeaderBytes = 16 * 1024
    public static let maximumBodyBytes = 64 * 1024
    static let maximumHeaders = 100

    public enum Result: Equatable, Sendable {
        /// More bytes needed.
        case incomplete
        /// A request, and how many bytes of the buffer it used.
        case complete(HTTPRequest, consumed: Int)
        /// Refused with this status and message; the connection is closed after the answer.
        case invalid(status: Int, message: String)
    }

    public enum Head: Equatable, Sendable {
        /// The header block has not ended; scan on from `resume` when more bytes arrive.
        case incomplete(resume: Int)
        /// The request without its body; the body (`bodyLength` bytes) starts at `bodyStart`.
        case complete(HTTPRequest, bodyStart: Int, bodyLength: Int)
        case invalid(status: Int, message: String)
    }

    /// The whole request at once (head, then body): for tests and the fuzzer.
    public static func parse(_ buffer: [UInt8]) -> Result {
        switch head(buffer, from: 0) {
        case .incomplete:
            return .incomplete
        case .invalid(let status, let message):
            return .invalid(status: status, message: message)
        case .complete(var request, let bodyStart, let length):
            guard buffer.count - bodyStart >= length else { return .incomplete }
            request.body = Array(buffer[bodyStart..<(bodyStart + length)])
            return .complete(request, consumed: bodyStart + length)
        }
    }

    /// The request line and headers, once the blank line after them is in `buffer`. `from` is
    /// the `resume` of the last `.incomplete` (bytes before it were scanned already).
    public static func head(_ buffer: [UInt8], from: Int) -> Head {
        guard let headerEnd = findBlankLine(in: buffer, from: from, limit: maximumHeaderBytes + 4) else {
            return buffer.count > maximumHeaderBytes
                ? .invalid(status: 431, message: "request headers larger than \(maximumHeaderBytes / 1024) KiB")
                : .incomplete(resume: max(0, buffer.count - 3))
        }
        guard headerEnd <= maximumHeaderBytes else {
            return .invalid(status: 431, message: "request headers larger than \(maximumHeaderBytes / 1024) KiB")
        }
        let lines = split(buffer[..<headerEnd])
        guard let requestLine = lines.first else { return .invalid(status: 400, message: "empty request") }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty else {
            return .invalid(status: 400, message: "malformed request line")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .invalid(status: 505, message: "only HTTP/1.0 and HTTP/1.1 are served")
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .invalid(status: 400, message: "the request target must be a path")
        }
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        guard let path = CleanPath.decode(target[..<(question ?? target.endIndex)]) else {
            return .invalid(status: 400,
                            message: "the request target must be a clean path (no //, \\, dot segments, control characters or invalid UTF-8)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard headers.count < maximumHeaders else { return .invalid(status: 431, message: "more than \(maximumHeaders) headers") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                return .invalid(status: 400, message: "malformed header line")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = Substring(String(decoding: line[(colon + 1)...], as: UTF8.self)).trimmingSpaces
            headers.append((name, String(value)))
        }
        // Two Hosts could be read one way by a proxy and another by the Host check.
        guard headers.count(where: { $0.name == "host" }) <= 1 else { return .invalid(status: 400, message: "more than one Host header") }
        var request = HTTPRequest(method: String(decoding: parts[0], as: UTF8.self), path: path, headers: headers)
        request.query = question.map { String(decoding: target[($0 + 1)...], as: UTF8.self) }
        if let encoding = request.header("transfer-encoding"), encoding.lowercased() != "identity" {
            return .invalid(status: 411, message: "chunked bodies are not accepted; send Content-Length")
        }
        var length = 0
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if let text = lengths.first {
            guard lengths.allSatisfy({ $0 == text }), text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text) else {
                return .invalid(status: 400, message: "malformed Content-Length")
            }
            length = value
        }
        guard length <= maximumBodyBytes else {
            return .invalid(status: 413, message: "the body is larger than \(maximumBodyBytes / 1024) KiB")
        }
        return .complete(request, bodyStart: headerEnd + 4, bodyLength: length)
    }

    /// Where `\r\n\r\n` starts, looking only at `from...` (within `limit` bytes of the start).
    static func findBlankLine(in buffer: [UInt8], from: Int, limit: Int) -> Int? {
        let end = min(buffer.count, limit) - 4
        var index = max(0, from)
        while index <= end {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Header lines, split at CRLF (a bare LF is accepted too).
    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
    }

    /// RFC 9110 token characters (methods and header names).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
