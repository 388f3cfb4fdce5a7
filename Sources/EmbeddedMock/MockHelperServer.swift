import Crypto
import Foundation
import LineChannel
import OnboardService
import SQLiteStore
import ServiceAPI
import Synchronization

/// `onboard-mock`'s whole work: the embedded mock served over a socket pair, one JSON line
/// per call each way (`MockHelperFrame`). The client's first line names the file; every
/// later line is a call, answered as it finishes (calls overlap). It ends when the client
/// closes its end, after answering what it was already asked.
public enum MockHelperServer {
    public static func run(channel: LineChannel = LineChannel(descriptor: 0)) async {
        var lines = channel.lines().makeAsyncIterator()
        let writer = channel
        guard let first = await lines.next(), let opening = try? JSONDecoder().decode(MockHelperFrame.Opening.self, from: first) else {
            writer.write(MockHelperFrame.Opened(failure: ServiceError(.serverError, "The embedded mock was not told which file to open.")))
            return
        }
        let clock = AdjustableClock()
        let opened: MockDatabaseFile.Opened
        do {
            let key = opening.sealingKey.flatMap { Data(base64Encoded: $0) }
            let sealer = key.map { key in ColumnSealer { SymmetricKey(data: key) } }
            opened = try MockDatabaseFile.open(path: opening.path, sealer: sealer, clock: clock)
        } catch {
            let failure = error as? ServiceError ?? ServiceError(.serverError, "The embedded mock could not open its database (\(error)).")
            writer.write(MockHelperFrame.Opened(failure: failure))
            return
        }
        writer.write(MockHelperFrame.Opened(warning: opened.warning, lostAs: opened.lostAs))
        let mock = opened.mock
        await withTaskGroup(of: Void.self) { calls in
            while let line = await lines.next() {
                calls.addTask {
                    writer.write(await answer(line, on: mock, clock: clock))
                }
            }
        }
    }

    /// One call's reply; anything unreadable is a refusal, never the end of the helper.
    static func answer(_ line: Data, on mock: InProcessTransport, clock: AdjustableClock) async -> MockHelperFrame.Reply {
        guard let request = try? JSONDecoder().decode(MockHelperFrame.Request.self, from: line) else {
            return MockHelperFrame.Reply(id: -1, failure: ServiceError(.invalidInput, "The embedded mock could not read a call."))
        }
        guard let type = MockHelperFrame.calls[request.endpoint] else {
            return MockHelperFrame.Reply(id: request.id, failure: ServiceError(.notFound, "There is no such endpoint."))
        }
        clock.offsetSeconds = request.clockOffsetSeconds
        let caller = Caller(
            bearer: request.bearer, client: InProcessTransport.client, idempotencyKey: request.idempotencyKey,
            idempotencyProof: request.idempotencyProof, deviceToken: request.deviceToken)
        do {
            let answer = try await serve(type, request: request, caller: caller, on: mock)
            return MockHelperFrame.Reply(id: request.id, answer: String(decoding: answer, as: UTF8.self))
        } catch let refusal as ServiceError {
            return MockHelperFrame.Reply(id: request.id, failure: refusal)
        } catch {
            return MockHelperFrame.Reply(id: request.id, failure: ServiceError(.invalidInput, "The embedded mock could not read a call."))
        }
    }

    /// The call decoded as its type and served as in process; the QA console's outbox is
    /// read from the file, as the in-process console reads it.
    static func serve<Call: WireCall>(
        _ type: Call.Type, request: MockHelperFrame.Request, caller: Caller, on mock: InProcessTransport
    ) async throws -> Data {
        var call = try JSONDecoder().decode(Call.self, from: Data(request.body.utf8))
        call.pathParameter = request.parameter
        if call is Wire.OutboxCall { return try JSONEncoder().encode(mock.service.outboxSnapshot()) }
        if let query = call as? MockHelperFrame.FunnelQuery {
            return try JSONEncoder().encode(try await mock.service.funnel(flow: query.flow, since: query.since, byVersion: query.byVersion))
        }
        return try JSONEncoder().encode(try await mock.service.answer(call, as: caller))
    }
}
