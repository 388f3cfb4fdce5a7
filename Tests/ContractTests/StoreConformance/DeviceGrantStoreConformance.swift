import OnboardService
import ServiceAPI
import Testing

/// `DeviceGrantStore`'s promises (RFC 8628), held on every backend.
@Suite("DeviceGrantStore conformance")
struct DeviceGrantStoreConformance {
    func grant(_ code: String, at now: Int64 = 1_000) -> NewDeviceGrant {
        NewDeviceGrant(
            deviceCodeHash: "device-\(code)", userCode: code, provider: "google", createdAt: now, expiresAt: now + 600, interval: 5,
            requestedFrom: "203.0.113.7")
    }

    @Test(arguments: Backend.allCases)
    func aGrantWaitsIsApprovedAndIsSpentByTheFirstPollAfter(backend: Backend) async throws {
        let store = try await backend.store()
        try await store.createDeviceGrant(grant("ABCD1234"))
        #expect(
            try await store.pendingDeviceGrant(userCode: "ABCD1234", now: 1_001)
                == PendingDeviceGrant(
                    provider: "google", expiresAt: 1_600, createdAt: 1_000, requestedFrom: "203.0.113.7"))
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-ABCD1234", now: 1_001) == .pending)
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-ABCD1234", now: 1_002) == .slowDown(interval: 10))
        let identity = DeviceIdentity(subject: "subject-1", email: "sam@example.com")
        #expect(try await store.decideDeviceGrant(userCode: "ABCD1234", identity: identity, now: 1_003))
        #expect(try await store.pendingDeviceGrant(userCode: "ABCD1234", now: 1_004) == nil)
        #expect(try await store.decideDeviceGrant(userCode: "ABCD1234", identity: nil, now: 1_004) == false)
        #expect(
            try await store.pollDeviceGrant(deviceCodeHash: "device-ABCD1234", now: 1_020)
                == .approved(provider: "google", identity: identity, expiresAt: 1_600))
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-ABCD1234", now: 1_040) == .expired)
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-nothing", now: 1_040) == .unknown)
    }

    @Test(arguments: Backend.allCases)
    func aDeniedWithdrawnOrExpiredGrantSignsNoOneIn(backend: Backend) async throws {
        let store = try await backend.store()
        for code in ["DENY0001", "GONE0001", "LATE0001"] { try await store.createDeviceGrant(grant(code)) }
        #expect(try await store.decideDeviceGrant(userCode: "DENY0001", identity: nil, now: 1_001))
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-DENY0001", now: 1_010) == .denied)
        try await store.withdrawDeviceGrant(deviceCodeHash: "device-GONE0001")
        #expect(
            try await store.decideDeviceGrant(userCode: "GONE0001", identity: DeviceIdentity(subject: "s", email: nil), now: 1_011) == false
        )
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-GONE0001", now: 1_012) == .expired)
        #expect(try await store.pendingDeviceGrant(userCode: "LATE0001", now: 1_600) == nil)
        #expect(try await store.decideDeviceGrant(userCode: "LATE0001", identity: nil, now: 1_600) == false)
        #expect(try await store.pollDeviceGrant(deviceCodeHash: "device-LATE0001", now: 1_600) == .expired)
    }
}
