import Testing
@testable import NoiseClockAudio

/// The radio's libraries are there (`make deps`) and open with every function the player needs:
/// libcurl with HTTPS, libfaad2 with AAC.
@Suite struct StreamLibraryTests {
    @Test func opensLibcurlWithHTTPSAndFaadWithAAC() throws {
        let library = try StreamLibrary.shared.get()
        let curl = library.curlVersion
        #expect(curl.version.hasPrefix("7.") || curl.version.hasPrefix("8."))
        #expect(curl.https, "Debian's libcurl4 is built with OpenSSL")
        #expect(library.decodesAAC)
    }
}
