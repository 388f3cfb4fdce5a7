import Foundation

// The client's address behind reverse proxies, for onboard-server and serve-web alike.

/// An address or a CIDR block (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`), IPv4 or IPv6.
public struct AddressBlock: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefix: Int
    public let description: String

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let bytes = Self.bytes(parts[0]) else { return nil }
        let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let prefix, (0...bytes.count * 8).contains(prefix) else { return nil }
        self.bytes = bytes
        self.prefix = prefix
        description = text
    }

    /// The address's bytes (4 or 16), or nil when it is not an IP address.
    public static func bytes(_ address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    public func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        for bit in 0..<prefix where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 { return false }
        return true
    }
}

/// `--trusted-proxy`: the client's address for rate limits and logs. From
/// `X-Forwarded-For` only when the connection comes from a trusted proxy, read from the
/// right, past every trusted hop: the first address no trusted proxy could have written
/// is the client's. A header that does not parse is not believed (the peer stays the
/// address), and from anyone else the header is ignored, so a client cannot choose its
/// own address (ASVS 14.5.2).
public struct TrustedProxies: Sendable {
    public let blocks: [AddressBlock]

    public init(blocks: [AddressBlock]) {
        self.blocks = blocks
    }

    public func trusts(_ address: String) -> Bool {
        guard let bytes = AddressBlock.bytes(address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    public func client(peer: String, forwardedFor: String?) -> String {
        guard trusts(peer), let forwardedFor else { return peer }
        var client = peer
        for hop in forwardedFor.split(separator: ",").reversed().map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard AddressBlock.bytes(hop) != nil else { return peer }
            client = hop
            if !trusts(hop) { break }
        }
        return client
    }
}
