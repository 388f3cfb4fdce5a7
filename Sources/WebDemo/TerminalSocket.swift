import DemoSessions
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// One page's WebSocket: its first message says what it wants (a new session, to resume
/// its own after a dropped connection, or to watch one), then the terminal's bytes flow
/// both ways until either side ends.
struct TerminalSocket: Sendable {
    let sessions: WebSessions
    let settings: WebDemoServer.Settings

    /// The page's first message.
    struct Hello: Decodable {
        var start: Bool?
        var resume: String?
        var watch: String?
        var columns: Int?
        var rows: Int?
    }

    /// A later text message from the page: its terminal's new size.
    struct Size: Decodable {
        var columns: Int
        var rows: Int
    }

    func serve(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ context: WebSocketRouterContext<WebDemoContext>
    ) async {
        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        guard case .text(let text)? = try? await messages.next(), let hello = try? JSONDecoder().decode(Hello.self, from: Data(text.utf8))
        else {
            return await close(outbound, saying: ["refused": "This page could not start a session. Reload to try again."])
        }
        let columns = min(max(hello.columns ?? 80, 2), 500)
        let rows = min(max(hello.rows ?? 24, 2), 200)
        if let token = hello.watch {
            guard let watched = sessions.watched.viewers(watching: token), let viewer = watched.attachWatcher() else {
                return await close(outbound, saying: ["refused": "This watch link's session has ended (or the link is wrong)."])
            }
            let writer = Task { await relay(viewer, to: outbound) }
            // A watcher's messages are read only to know when it leaves: its keys do nothing.
            while (try? await messages.next()) != nil {}
            writer.cancel()
            watched.detach(viewer.id)
            return
        }
        guard !settings.watchOnly else {
            return await close(outbound, saying: ["refused": "This server only shows watch links."])
        }
        let session: WebSession
        if let token = hello.resume, let resumed = sessions.session(resuming: token) {
            session = resumed
        } else {
            do {
                session = try await sessions.start(
                    address: visitor(context), connection: connection(context), columns: columns, rows: rows,
                    watchBase: origin(context.request))
            } catch {
                return await close(outbound, saying: ["refused": error.message])
            }
        }
        guard let viewer = session.attachPresenter() else {
            return await close(outbound, saying: ["ended": "This session has ended. Reload the page to start a new one."])
        }
        if hello.resume != nil {
            session.resize(columns: columns, rows: rows, from: viewer.id)
            session.repaint()
        }
        try? await outbound.write(.text(Self.json(["session": session.token, "watch": session.watchToken])))
        let writer = Task { await relay(viewer, to: outbound) }
        while let message = try? await messages.next() {
            switch message {
            case .binary(let buffer):
                session.type(Array(buffer.readableBytesView), from: viewer.id)
            case .text(let text):
                if let size = try? JSONDecoder().decode(Size.self, from: Data(text.utf8)) {
                    session.resize(columns: size.columns, rows: size.rows, from: viewer.id)
                }
            }
        }
        writer.cancel()
        session.detach(viewer.id)
    }

    /// The session's output to the page until the session ends (or this page is replaced),
    /// then the socket closes.
    private func relay(_ viewer: SessionViewers.Viewer, to outbound: WebSocketOutboundWriter) async {
        for await output in viewer.output {
            switch output {
            case .bytes(let bytes):
                try? await outbound.write(.binary(ByteBuffer(bytes: bytes)))
            case .size(let columns, let rows):
                try? await outbound.write(.text(#"{"size":{"columns":\#(columns),"rows":\#(rows)}}"#))
            case .watchers(let count):
                try? await outbound.write(.text(#"{"watchers":\#(count)}"#))
            case .replaced:
                try? await outbound.write(.text(Self.json(["ended": "This session was opened in another tab or window."])))
            case .ended(let status, let reason):
                let how =
                    reason.map { "This session has ended: \($0)." }
                    ?? (status == 0 ? "Onboard has ended." : "Onboard has ended (exit status \(status)).")
                try? await outbound.write(.text(Self.json(["ended": how + " Reload the page to start again."])))
            }
        }
        try? await outbound.close(.normalClosure, reason: nil)
    }

    private func close(_ outbound: WebSocketOutboundWriter, saying message: [String: String]) async {
        try? await outbound.write(.text(Self.json(message)))
        try? await outbound.close(.normalClosure, reason: nil)
    }

    static func json(_ object: [String: String]) -> String {
        String(decoding: (try? JSONEncoder().encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Who the visitor is, for the per-address limit: the peer, or the address a trusted
    /// proxy (nginx) says it forwarded for (`TrustedProxies`, as onboard-server reads it).
    private func visitor(_ context: WebSocketRouterContext<WebDemoContext>) -> String {
        let peer = context.requestContext.peer?.ipAddress ?? "unknown"
        let forwarded = context.request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }.map(\.value).joined(separator: ",")
        return settings.trustedProxies.client(peer: peer, forwardedFor: forwarded.isEmpty ? nil : forwarded)
    }

    /// `SSH_CONNECTION` for the session's program: the visitor, then this server.
    private func connection(_ context: WebSocketRouterContext<WebDemoContext>) -> String {
        let local = context.requestContext.local
        return SessionEnvironment.connection(
            client: (visitor(context), context.requestContext.peer?.port), server: (local?.ipAddress, local?.port))
    }

    /// The origin the page was served from (checked by `SameOrigin`), for watch links.
    private func origin(_ request: Request) -> String {
        request.headers[.origin] ?? ""
    }
}
