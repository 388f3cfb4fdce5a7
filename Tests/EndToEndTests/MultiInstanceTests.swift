import Foundation
import ServiceAPI
import ServiceClient
import Testing
import TestSupport

extension EndToEnd {
    /// Two real onboard-server processes on one PostgreSQL database: every rule holds
    /// across them, with clients spread over both.
    @Suite struct MultiInstanceTests {
        /// Two instances on a new database, with the given extra arguments.
        func twoInstances(_ arguments: [String] = []) throws -> (ServerProcess, ServerProcess) {
            let url = try ThrowawayPostgres.shared.get().newDatabase()
            let first = try ServerProcess(arguments: ["--dev", "--database", url, "--bcrypt-cost", "10"] + arguments)
            let second = try ServerProcess(arguments: ["--dev", "--database", url, "--bcrypt-cost", "10"] + arguments)
            return (first, second)
        }

        @Test func aUserCreatedOnOneInstanceLogsInOnTheOther() async throws {
            let (a, b) = try twoInstances()
            let onA = try HTTPTransport(base: a.base), onB = try HTTPTransport(base: b.base)
            let account = try await onA.register(flow: "babybasics", name: "Jo", email: "jo@example.org", password: "long enough")
            let again = try await onB.login(flow: "babybasics", email: "jo@example.org", password: "long enough")
            #expect(again.userID == account.userID)
            // And a token signed by one is taken by the other (the key is in the database).
            #expect(try await onB.profile(accessToken: account.accessToken).userID == account.userID)
        }

        /// Issue 31: `/dev/clock` moved one instance only, so QA behind a load balancer saw
        /// a code expire on one and not the other. The offset is in the database now.
        @Test func theQAClockMovesEveryInstance() async throws {
            let (a, b) = try twoInstances()
            let onA = try HTTPTransport(base: a.base), onB = try HTTPTransport(base: b.base)
            let before = try await onB.signInAnonymously(flow: "oklah").session.issuedAt
            try await onA.setClockOffset(seconds: 86_400)
            let after = try await onB.signInAnonymously(flow: "oklah").session.issuedAt
            #expect((86_400...86_460).contains(after - before), "B's clock moved with A's: \(after - before) s")
            try await onB.setClockOffset(seconds: 0)
            let back = try await onA.signInAnonymously(flow: "oklah").session.issuedAt
            #expect(back - before < 60)
        }

        /// Issue 47: `/dev/faults` was per instance while the clock was shared, so behind a
        /// load balancer a QA fault hit half the requests. Faults and their counts are in
        /// the database: fail-first=3 is three failures over both instances, then none.
        @Test func qaFaultsHitEveryInstanceAndCountOnce() throws {
            let (a, b) = try twoInstances()
            #expect(ServerProcess.post(a.base + "/api/v1/dev/faults", json: #"{"faults":["server-error"]}"#) == 200)
            #expect(ServerProcess.post(b.base + "/api/v1/auth/anonymous", json: "{}") == 500, "set on A, injected on B")
            #expect(ServerProcess.post(a.base + "/api/v1/auth/anonymous", json: "{}") == 500)
            #expect(ServerProcess.post(b.base + "/api/v1/dev/faults", json: #"{"faults":["fail-first=3"]}"#) == 200)
            let statuses = [a, b, a, b, a].map { ServerProcess.post($0.base + "/api/v1/auth/anonymous", json: "{}") }
            #expect(statuses == [503, 503, 503, 200, 200], "three failures in all, then through: \(statuses)")
            #expect(ServerProcess.post(a.base + "/api/v1/dev/reset", json: "{}") == 200)
            #expect(ServerProcess.post(b.base + "/api/v1/auth/anonymous", json: "{}") == 200, "a reset clears them everywhere")
        }

        @Test func anInviteRacedFromTwentyClientsOverBothInstancesHasOneWinner() async throws {
            let (a, b) = try twoInstances()
            let instances = [try HTTPTransport(base: a.base), try HTTPTransport(base: b.base)]
            let owner = try await instances[0].register(flow: "babybasics", name: "Jo", email: "owner@example.org", password: "long enough")
            let child = try await instances[0].addChild(accessToken: owner.accessToken, name: "Ray", birthDate: nil)
            let invite = try await instances[1].createInvite(accessToken: owner.accessToken, childID: child.id)
            var tokens: [String] = []
            for index in 0..<20 {
                let guest = try await instances[index % 2].signInAnonymously(flow: "babybasics")
                tokens.append(guest.session.accessToken)
            }
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for (index, token) in tokens.enumerated() {
                    let instance = instances[index % 2]
                    group.addTask { (try? await instance.acceptInvite(accessToken: token, code: invite.code)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1, "exactly one winner of 20")
        }

        @Test func aRefreshTokenReplayedOnTheOtherInstanceRevokesTheFamily() async throws {
            let (a, b) = try twoInstances()
            let onA = try HTTPTransport(base: a.base), onB = try HTTPTransport(base: b.base)
            let first = try await onA.signInAnonymously(flow: "oklah").session
            let second = try await onA.refresh(refreshToken: first.refreshToken)
            // Past the 10 s grace on both instances' clocks, the first token comes back on B.
            try await onA.setClockOffset(seconds: 60)
            try await onB.setClockOffset(seconds: 60)
            await #expect(throws: ServiceError.sessionRejected) { try await onB.refresh(refreshToken: first.refreshToken) }
            // It leaked: the whole family is revoked, the newer token too, wherever it is used.
            await #expect(throws: ServiceError.sessionRejected) { try await onA.refresh(refreshToken: second.refreshToken) }
        }

        @Test func aRateLimitCountsRequestsToBothInstances() async throws {
            let (a, b) = try twoInstances(["--sign-in-limit", "3"])
            let onA = try HTTPTransport(base: a.base), onB = try HTTPTransport(base: b.base)
            _ = try await onA.signInAnonymously(flow: "oklah")
            _ = try await onB.signInAnonymously(flow: "oklah")
            _ = try await onA.signInAnonymously(flow: "oklah")
            do {
                _ = try await onB.signInAnonymously(flow: "oklah")
                Issue.record("a fourth sign-in in a minute was let through by the other instance")
            } catch let error as ServiceError {
                #expect(error.code == .rateLimited)
                #expect(error.retryAfter != nil)
            }
        }
    }
}
