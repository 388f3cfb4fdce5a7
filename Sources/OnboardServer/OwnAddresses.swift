import Foundation
import ServiceAPI

/// Whether a request's host names this machine: loopback, or an address of one of its
/// network interfaces. The development provider's issuer is the address the browser
/// used, and the broker fetches its discovery and keys from there; a Host header naming
/// any other machine would have the server fetch from it (server-side request forgery),
/// so only its own addresses are taken.
enum OwnAddresses {
    static func contains(authority: String) -> Bool {
        var host = authority
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        if Loopback.contains(host) { return true }
        return interfaceAddresses().contains(host.lowercased())
    }

    /// Every address of this machine's interfaces, as text.
    static func interfaceAddresses() -> Set<String> {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: Set<String> = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            // An IPv6 address's zone (`fe80::1%eth0`) is not part of a Host header.
            let name =
                String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "%").first.map(
                    String.init) ?? ""
            addresses.insert(name.lowercased())
        }
        return addresses
    }
}
