import ClientAddress
import Testing

/// Issue 31 (ASVS 14.5.2): whose address a request has, behind proxies and not.
@Suite struct TrustedProxyTests {
    let proxies = TrustedProxies(blocks: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"].compactMap(AddressBlock.init))

    @Test func theClientIsTheFirstHopNoTrustedProxyWrote() {
        // nginx on 127.0.0.1 appended the client's address.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.7") == "198.51.100.7")
        // A client's own claim in front is not believed past the first untrusted hop.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "1.2.3.4, 198.51.100.7") == "198.51.100.7")
        // Two trusted proxies: both skipped.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.7, 10.1.2.3") == "198.51.100.7")
        #expect(proxies.client(peer: "fd00::1", forwardedFor: "2001:db8::5") == "2001:db8::5")
        // Only trusted hops: the leftmost.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "10.0.0.9, 10.1.2.3") == "10.0.0.9")
    }

    @Test func fromAnyoneElseOrUnreadableTheHeaderIsIgnored() {
        #expect(proxies.client(peer: "203.0.113.9", forwardedFor: "198.51.100.7") == "203.0.113.9", "not a proxy we trust")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.7, not-an-address") == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
    }

    @Test func blocksParseAsTheyAreWritten() {
        #expect(AddressBlock("10.0.0.0/8")?.contains(AddressBlock.bytes("10.255.0.1")!) == true)
        #expect(AddressBlock("10.0.0.0/8")?.contains(AddressBlock.bytes("11.0.0.1")!) == false)
        #expect(AddressBlock("192.168.1.0/25")?.contains(AddressBlock.bytes("192.168.1.127")!) == true)
        #expect(AddressBlock("192.168.1.0/25")?.contains(AddressBlock.bytes("192.168.1.128")!) == false)
        #expect(AddressBlock("::1")?.contains(AddressBlock.bytes("::1")!) == true)
        #expect(AddressBlock("10.0.0.0/33") == nil)
        #expect(AddressBlock("example.org") == nil)
    }
}
