/// Reads one HTTP/1.x request from the bytes received so far. Limits are checked as soon as
/// they can be: an oversized header block or a declared body over the limit is refused before
/// the rest arrives. Chunked bodies are not taken (browsers and curl send a length).
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

    public static func parse(_ buffer: [UInt8]) -> Result {
        guard let headerEnd = find(crlfcrlf, in: buffer, limit: maximumHeaderBytes + 4) else {
            return buffer.count > maximumHeaderBytes
                ? .invalid(status: 431, message: "request headers larger than \(maximumHeaderBytes / 1024) KiB")
                : .incomplete
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
        let request = HTTPRequest(method: String(decoding: parts[0], as: UTF8.self), path: "", headers: headers)
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
        let bodyStart = headerEnd + 4
        guard buffer.count - bodyStart >= length else { return .incomplete }

        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = Substring(String(decoding: target[..<(question ?? target.endIndex)], as: UTF8.self))
        var complete = request
        complete.path = PercentDecoding.decode(rawPath, plusIsSpace: false)
        complete.query = question.map { String(decoding: target[($0 + 1)...], as: UTF8.self) }
        complete.body = Array(buffer[bodyStart..<(bodyStart + length)])
        return .complete(complete, consumed: bodyStart + length)
    }

    private static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    private static func find(_ needle: [UInt8], in buffer: [UInt8], limit: Int) -> Int? {
        let end = min(buffer.count, limit) - needle.count
        guard end >= 0 else { return nil }
        var index = 0
        while index <= end {
            if buffer[index] == needle[0] && buffer[index + 1] == needle[1] && buffer[index + 2] == needle[2] && buffer[index + 3] == needle[3] {
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
