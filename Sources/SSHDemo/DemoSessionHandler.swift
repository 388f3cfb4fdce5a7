import DemoSessions
import Foundation
import NIOCore
import NIOPosix
import NIOSSH

/// One SSH session channel: remembers the terminal the client asked for, starts
/// `onboard` on a pseudo-terminal of that size when the client asks for a shell, pumps
/// bytes both ways, passes window changes on, and hangs the program up when the client
/// leaves.
final class DemoSessionHandler: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData

    private let settings: DemoServer.Settings
    private let registry: SessionRegistry
    private var terminal: (term: String, rows: Int, columns: Int)?
    private var process: SessionProcess?
    private var pty: Channel?

    init(settings: DemoServer.Settings, registry: SessionRegistry) {
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
            terminal = (request.term, request.terminalRowHeight > 0 ? request.terminalRowHeight : 24,
                        request.terminalCharacterWidth > 0 ? request.terminalCharacterWidth : 80)
            reply(context, wanted: request.wantReply, success: true)
        case let request as SSHChannelRequestEvent.ShellRequest:
            start(context, wantReply: request.wantReply)
        case let request as SSHChannelRequestEvent.ExecRequest:
            refuse(context, wantReply: request.wantReply, "This demo runs Onboard only. Connect without a command: ssh -p \(settings.port) demo@HOST")
        case let request as SSHChannelRequestEvent.SubsystemRequest:
            refuse(context, wantReply: request.wantReply, "This demo runs Onboard only (no \(request.subsystem)).")
        case let request as SSHChannelRequestEvent.WindowChangeRequest:
            process?.resize(rows: max(1, request.terminalRowHeight), columns: max(1, request.terminalCharacterWidth))
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            reply(context, wanted: request.wantReply, success: false) // the session's environment is the server's
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
        guard process == nil else { return reply(context, wanted: wantReply, success: false) }
        guard let terminal else {
            return refuse(context, wantReply: wantReply, "Onboard needs a terminal: connect with ssh -t -p \(settings.port) demo@HOST")
        }
        guard registry.reserve() else {
            return refuse(context, wantReply: wantReply, "Sorry, the demo is full (\(registry.limit) sessions). Please try again in a little while.")
        }
        let folder = settings.stateFolder + "/ssh-sessions/" + UUID().uuidString.lowercased()
        let started: SessionProcess
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            started = try SessionProcess(
                executable: settings.executable, arguments: settings.arguments + ["--state-dir", folder],
                environment: SessionEnvironment.make(term: Terminfo.usable(terminal.term), connection: Self.connection(of: context.channel)), rows: terminal.rows, columns: terminal.columns)
        } catch {
            registry.ended(nil)
            try? FileManager.default.removeItem(atPath: folder)
            return refuse(context, wantReply: wantReply, "Onboard could not start: \(error)")
        }
        process = started
        registry.started(started)
        reply(context, wanted: wantReply, success: true)

        let ssh = context.channel
        let pump = NIOPipeBootstrap(group: context.eventLoop)
            .channelInitializer { pty in
                pty.eventLoop.makeCompletedFuture { try pty.pipeline.syncOperations.addHandler(TerminalToClient(ssh: ssh)) }
            }
            .takingOwnershipOfDescriptor(inputOutput: dup(started.leader))
        pump.assumeIsolated().whenSuccess { pty in self.pty = pty }
        pump.whenFailure { _ in started.hangUp() }

        // The reaper: waits for the program, reports its exit status, ends the session.
        let registry = self.registry
        Thread {
            let status = started.waitForExit()
            registry.ended(started.pid)
            try? FileManager.default.removeItem(atPath: folder)
            ssh.eventLoop.execute {
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

/// The program's output, to the client.
final class TerminalToClient: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let ssh: Channel

    init(ssh: Channel) {
        self.ssh = ssh
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        ssh.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(unwrapInboundIn(data))), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // EIO once the program has closed its terminal: the session is ending.
        context.close(promise: nil)
    }
}
