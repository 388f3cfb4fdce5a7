import DemoSessions
import SessionZygote
import Foundation
import NIOCore
import NIOPosix
import NIOSSH
import Synchronization

/// One SSH session channel: remembers the terminal the client asked for, starts
/// `onboard` on a pseudo-terminal of that size when the client asks for a shell, pumps
/// bytes both ways, passes window changes on, and hangs the program up when the client
/// leaves.
final class DemoSessionHandler: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData

    private let settings: DemoServer.Settings
    private let registry: SessionRegistry
    private let starter: SessionStarter
    private var terminal: (term: String, rows: Int, columns: Int)?
    private var process: SessionProcess?
    /// A shell asked for and its program not started yet.
    private var starting = false
    private var pty: Channel?
    /// Who watches this session from a browser (with `--watch-web`).
    private var viewers: SessionViewers?

    init(settings: DemoServer.Settings, registry: SessionRegistry, starter: SessionStarter) {
        self.starter = starter
        self.settings = settings
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        _ = context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let request as SSHChannelRequestEvent.PseudoTerminalRequest:
            // A client that cannot tell its size (ssh -tt from a script) sends 0: 80x24.
            terminal = (
                request.term, request.terminalRowHeight > 0 ? request.terminalRowHeight : 24,
                request.terminalCharacterWidth > 0 ? request.terminalCharacterWidth : 80
            )
            reply(context, wanted: request.wantReply, success: true)
        case let request as SSHChannelRequestEvent.ShellRequest:
            start(context, wantReply: request.wantReply)
        case let request as SSHChannelRequestEvent.ExecRequest:
            refuse(
                context, wantReply: request.wantReply,
                "This demo runs Onboard only. Connect without a command: ssh -p \(settings.port) demo@HOST")
        case let request as SSHChannelRequestEvent.SubsystemRequest:
            refuse(context, wantReply: request.wantReply, "This demo runs Onboard only (no \(request.subsystem)).")
        case let request as SSHChannelRequestEvent.WindowChangeRequest:
            terminal?.rows = max(1, request.terminalRowHeight)
            terminal?.columns = max(1, request.terminalCharacterWidth)
            process?.resize(rows: max(1, request.terminalRowHeight), columns: max(1, request.terminalCharacterWidth))
            viewers?.resized(columns: max(1, request.terminalCharacterWidth), rows: max(1, request.terminalRowHeight))
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            reply(context, wanted: request.wantReply, success: false)  // the session's environment is the server's
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        guard case .channel = message.type, case .byteBuffer(let bytes) = message.data else { return }
        pty?.writeAndFlush(bytes, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The client left (or the connection dropped): hang up, as sshd would.
        process?.hangUp()
        pty?.close(promise: nil)
        context.fireChannelInactive()
    }

    private func start(_ context: ChannelHandlerContext, wantReply: Bool) {
        guard process == nil, !starting else { return reply(context, wanted: wantReply, success: false) }
        guard let terminal else {
            return refuse(context, wantReply: wantReply, "Onboard needs a terminal: connect with ssh -t -p \(settings.port) demo@HOST")
        }
        guard registry.reserve() else {
            return refuse(
                context, wantReply: wantReply, "Sorry, the demo is full (\(registry.limit) sessions). Please try again in a little while.")
        }
        let folder = settings.stateFolder + "/ssh-sessions/" + UUID().uuidString.lowercased()
        // A watcher joining late asks the program to repaint: Ctrl-L into its terminal.
        let link = PtyLink()
        let viewers = settings.watch.map { _ in SessionViewers(columns: terminal.columns, rows: terminal.rows) { link.write([0x0C]) } }
        var extra: [String: String] = [:]
        if let watch = settings.watch, let viewers {
            let server = (context.channel.parent ?? context.channel).localAddress?.ipAddress ?? "127.0.0.1"
            extra["ONBOARD_WATCH_LINK"] = watch.link(server, viewers.watchToken)
        }
        let registry = self.registry
        let size = (rows: terminal.rows, columns: terminal.columns)
        let here = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        starting = true
        // Started off the event loop, which carries other sessions' bytes meanwhile.
        starter.start(
            folder: folder,
            environment: SessionEnvironment.make(
                term: Terminfo.usable(terminal.term), connection: Self.connection(of: context.channel), extra: extra),
            rows: size.rows, columns: size.columns
        ) { result in
            here.eventLoop.execute {
                let (handler, context) = here.value
                handler.starting = false
                switch result {
                case .success(let started):
                    handler.run(started, context, wantReply: wantReply, size: size, folder: folder, viewers: viewers, link: link)
                case .failure(let error):
                    registry.ended(nil)
                    handler.refuse(context, wantReply: wantReply, "Onboard could not start: \(error)")
                }
            }
        }
    }

    /// The started program's session: its bytes pumped both ways, its exit reported.
    private func run(
        _ started: SessionProcess, _ context: ChannelHandlerContext, wantReply: Bool, size: (rows: Int, columns: Int), folder: String,
        viewers: SessionViewers?, link: PtyLink
    ) {
        process = started
        registry.started(started)
        guard context.channel.isActive else {
            // The client left while it started: hung up as it would have been.
            started.hangUp()
            return reap(started, folder: folder, viewers: viewers, ssh: context.channel)
        }
        if let terminal, terminal.rows != size.rows || terminal.columns != size.columns {
            started.resize(rows: terminal.rows, columns: terminal.columns)  // resized while it started
        }
        if let viewers {
            self.viewers = viewers
            settings.watch?.directory.add(viewers)
        }
        reply(context, wanted: wantReply, success: true)

        let ssh = context.channel
        let pump = NIOPipeBootstrap(group: context.eventLoop)
            .channelInitializer { pty in
                pty.eventLoop.makeCompletedFuture {
                    try pty.pipeline.syncOperations.addHandler(TerminalToClient(ssh: ssh, viewers: viewers))
                }
            }
            .takingOwnershipOfDescriptor(inputOutput: fcntl(started.leader, F_DUPFD_CLOEXEC, 0))
        pump.assumeIsolated().whenSuccess { pty in
            self.pty = pty
            link.channel.withLock { $0 = pty }
        }
        pump.whenFailure { _ in started.hangUp() }

        reap(started, folder: folder, viewers: viewers, ssh: ssh)
    }

    /// The reaper: waits for the program, reports its exit status, ends the session.
    private func reap(_ started: SessionProcess, folder: String, viewers: SessionViewers?, ssh: Channel) {
        let registry = self.registry
        let directory = settings.watch?.directory
        Thread {
            let status = started.waitForExit()
            if let viewers {
                viewers.end(status: status, reason: registry.stopping)
                directory?.remove(viewers)
            }
            registry.ended(started.pid)
            try? FileManager.default.removeItem(atPath: folder)
            let said = registry.stopping.map { "\r\nThis session has ended: \($0).\r\n" }
            ssh.eventLoop.execute {
                if let said {
                    var buffer = ssh.allocator.buffer(capacity: said.utf8.count)
                    buffer.writeString(said)
                    ssh.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(buffer)), promise: nil)
                }
                ssh.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: status)).whenComplete { _ in
                    ssh.close(promise: nil)
                }
            }
        }.start()
    }

    /// sshd's `SSH_CONNECTION` for this channel's connection.
    static func connection(of channel: Channel) -> String {
        let connection = channel.parent ?? channel
        return SessionEnvironment.connection(
            client: (connection.remoteAddress?.ipAddress, connection.remoteAddress?.port),
            server: (connection.localAddress?.ipAddress, connection.localAddress?.port))
    }

    private func reply(_ context: ChannelHandlerContext, wanted: Bool, success: Bool) {
        guard wanted else { return }
        let event: Any = success ? ChannelSuccessEvent() : ChannelFailureEvent()
        context.triggerUserOutboundEvent(event, promise: nil)
    }

    /// Says why in plain words, then ends the session with exit status 1.
    private func refuse(_ context: ChannelHandlerContext, wantReply: Bool, _ message: String) {
        reply(context, wanted: wantReply, success: true)
        var buffer = context.channel.allocator.buffer(capacity: message.utf8.count + 2)
        buffer.writeString(message + "\r\n")
        let channel = context.channel
        context.writeAndFlush(NIOAny(SSHChannelData(type: .channel, data: .byteBuffer(buffer))), promise: nil)
        context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 1)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// The program's output, to the client and to anyone watching.
final class TerminalToClient: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let ssh: Channel
    private let viewers: SessionViewers?

    init(ssh: Channel, viewers: SessionViewers?) {
        self.ssh = ssh
        self.viewers = viewers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        viewers?.show(Array(bytes.readableBytesView))
        ssh.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(bytes)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // EIO once the program has closed its terminal: the session is ending.
        context.close(promise: nil)
    }
}

/// The session's terminal, for writes from outside its event loop (a watcher's repaint).
final class PtyLink: Sendable {
    let channel = Mutex<(any Channel)?>(nil)

    func write(_ bytes: [UInt8]) {
        guard let channel = channel.withLock({ $0 }) else { return }
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }
}
