import Testing
@testable import NoiseClockWeb

@Suite struct AccessGateTests {
    let token = "s3cret-token-0123456789abcdef"

    @Test func lettersInTheRightTokenByAnyOfTheThreeWays() {
        var gate = AccessGate(token: token)
        #expect(gate.check(.init(bearer: token), from: "a", now: 0) == .allowed)
        #expect(gate.check(.init(cookie: token), from: "a", now: 0) == .allowed)
        #expect(gate.check(.init(query: token), from: "a", now: 0) == .allowed)
        #expect(gate.check(.init(bearer: "wrong", cookie: token), from: "a", now: 0) == .allowed)
    }

    @Test func refusesNothingAndWrongTokens() {
        var gate = AccessGate(token: token)
        #expect(gate.check(.init(), from: "a", now: 0) == .refused)
        #expect(gate.check(.init(bearer: String(token.dropLast())), from: "a", now: 0) == .refused)
        #expect(gate.check(.init(bearer: token + "x"), from: "a", now: 0) == .refused)
    }

    @Test func throttlesAnAddressAfterTenFailuresInAMinuteForTheNextMinute() {
        var gate = AccessGate(token: token)
        for second in 0..<10 {
            #expect(gate.check(.init(bearer: "guess\(second)"), from: "10.0.0.9", now: Int64(second)) == .refused)
        }
        #expect(gate.check(.init(bearer: "guess10"), from: "10.0.0.9", now: 10) == .throttled(retryAfterSeconds: 60))
        // Even the right token waits: a guesser must not learn it was right.
        #expect(gate.check(.init(bearer: token), from: "10.0.0.9", now: 40) == .throttled(retryAfterSeconds: 30))
        #expect(gate.check(.init(bearer: token), from: "10.0.0.8", now: 40) == .allowed)
        #expect(gate.check(.init(bearer: token), from: "10.0.0.9", now: 70) == .allowed)
    }

    @Test func everyWrongCredentialOfARequestIsAGuess() {
        var gate = AccessGate(token: token)
        for second in 0..<3 {
            #expect(gate.check(.init(bearer: "a", cookie: "b", query: "c"), from: "x", now: Int64(second)) == .refused)
        }
        #expect(gate.check(.init(bearer: "d"), from: "x", now: 3) == .refused)
        #expect(gate.check(.init(bearer: "e"), from: "x", now: 4) == .throttled(retryAfterSeconds: 60))
        // A right one beside wrong ones counts nothing.
        #expect(gate.check(.init(bearer: token, cookie: "b", query: "c"), from: "y", now: 0) == .allowed)
        #expect(gate.matches(token))
        #expect(!gate.matches("b"))
        #expect(!gate.matches(nil))
    }

    /// Cookie tossing (issue 31, finding 4): a page on another port sets `noiseclock_session=x;
    /// path=/api`, which the browser sends first. Every value is tried, so the node's own cookie
    /// still lets the request in and nothing is counted against the address.
    @Test func everyCookieValueIsTriedAndATossedOneCountsNothingBesideTheRightOne() {
        var gate = AccessGate(token: token)
        for second in 0..<30 {
            #expect(gate.check(.init(cookies: ["x", token]), from: "a", now: Int64(second)) == .allowed)
            #expect(gate.check(.init(cookies: [token, "x", "y"]), from: "a", now: Int64(second)) == .allowed)
        }
        #expect(gate.check(.init(bearer: token), from: "a", now: 30) == .allowed)
        // Without the right one, each value is a guess: a header full of guesses gains nothing.
        #expect(gate.check(.init(cookies: ["g1", "g2", "g3", "g4", "g5"]), from: "b", now: 0) == .refused)
        #expect(gate.check(.init(cookies: (6...11).map { "g\($0)" }), from: "b", now: 0) == .throttled(retryAfterSeconds: 60))
        #expect(gate.check(.init(cookies: (0..<500).map { "h\($0)" }), from: "c", now: 0) == .throttled(retryAfterSeconds: 60))
    }

    /// A throttled address stays throttled for every credential: the right cookie among tossed
    /// ones, the right Bearer, the right `?token=` (a throttle that let it through would tell a
    /// guesser which guess was right).
    @Test func aThrottledAddressStaysThrottledForEveryCredential() {
        var gate = AccessGate(token: token)
        #expect(gate.check(.init(cookies: (0..<11).map { "g\($0)" }), from: "a", now: 0) == .throttled(retryAfterSeconds: 60))
        #expect(gate.check(.init(cookies: ["x", token]), from: "a", now: 1) == .throttled(retryAfterSeconds: 59))
        #expect(gate.check(.init(bearer: token), from: "a", now: 2) == .throttled(retryAfterSeconds: 58))
        #expect(gate.check(.init(query: token), from: "a", now: 3) == .throttled(retryAfterSeconds: 57))
        #expect(gate.check(.init(cookies: ["x", token]), from: "a", now: 60) == .allowed)
    }

    @Test func failuresSpreadOverMoreThanAMinuteAreNotThrottled() {
        var gate = AccessGate(token: token)
        for attempt in 0..<30 {
            #expect(gate.check(.init(bearer: "guess"), from: "a", now: Int64(attempt * 7)) == .refused)
        }
    }

    @Test func noTokenMeansEveryoneIsLetIn() {
        var gate = AccessGate(token: nil)
        #expect(gate.check(.init(), from: "a", now: 0) == .allowed)
        #expect(!gate.requiresToken)
    }

    @Test func comparesWholeTokens() {
        #expect(AccessGate.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AccessGate.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AccessGate.constantTimeEqual(Array("abc".utf8), Array("ab".utf8)))
        #expect(!AccessGate.constantTimeEqual([], Array("a".utf8)))
    }
}
