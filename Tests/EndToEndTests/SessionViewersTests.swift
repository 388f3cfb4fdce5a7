import DemoSessions
import Synchronization
import Testing

/// Who sees a demo session: what the program drew before the page that drives it had
/// attached reaches that page (500 pages at once left one blank: its program drew first).
@Suite struct SessionViewersTests {
    /// Everything `viewer` was sent, once the session has ended (which ends its stream).
    func everything(_ viewer: SessionViewers.Viewer, of viewers: SessionViewers) async -> [SessionViewers.Output] {
        viewers.end(status: 0, reason: nil)
        var received: [SessionViewers.Output] = []
        for await output in viewer.output { received.append(output) }
        return received
    }

    @Test func whatTheProgramDrewBeforeThePageCameIsKeptForIt() async throws {
        let viewers = SessionViewers(columns: 80, rows: 24, drivenByAPage: true) {}
        viewers.show(Array("Welcome".utf8))
        viewers.show(Array(" to OKLah".utf8))
        let page = try #require(viewers.attachPresenter())
        viewers.show(Array("next".utf8))
        #expect(
            await everything(page, of: viewers) == [
                .watchers(0), .bytes(Array("Welcome to OKLah".utf8)), .bytes(Array("next".utf8)), .ended(status: 0, reason: nil),
            ])
    }

    @Test func moreThanIsKeptAsksTheProgramToDrawAgain() async throws {
        let repainted = Mutex(0)
        let viewers = SessionViewers(columns: 80, rows: 24, drivenByAPage: true) { repainted.withLock { $0 += 1 } }
        viewers.show([UInt8](repeating: 0x41, count: 300_000))
        let page = try #require(viewers.attachPresenter())
        viewers.show(Array("redrawn".utf8))
        #expect(await everything(page, of: viewers) == [.watchers(0), .bytes(Array("redrawn".utf8)), .ended(status: 0, reason: nil)])
        #expect(repainted.withLock { $0 } == 1)
    }

    @Test func aSessionNoPageDrivesKeepsNothing() async throws {
        let viewers = SessionViewers(columns: 80, rows: 24) {}
        viewers.show(Array("before".utf8))
        let page = try #require(viewers.attachPresenter())
        viewers.show(Array("after".utf8))
        #expect(await everything(page, of: viewers) == [.watchers(0), .bytes(Array("after".utf8)), .ended(status: 0, reason: nil)])
    }
}
