import DemoSessions
import SessionZygote
import Foundation
import NIOCore
import NIOPosix
import NIOSSH

/// `onboard serve-ssh`: an SSH server where every connection gets its own Onboard on
/// its own pseudo-terminal. Anyone may log in, as any user, with no password: it is a
/// demo, and a session can run Onboard's flows and nothing else.
public struct DemoServer {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 2222
        public var maxSessions = 50
        /// The `onboard` binary each session runs, and the arguments before `--state-dir`.
        public var executable: String
        public var arguments: [String]
        /// Each session's state folder is made under this one, and removed when it ends.
        public var stateFolder: String
        /// Sessions watchable from a browser (`--watch-web`): where they are listed, and
        /// the link for a token, given the address the SSH client reached this server at.
        public var watch: Watch?

        public struct Watch: Sendable {
            public let directory: WatchDirectory
            public let link: @Sendable (_ serverAddress: String, _ token: String) -> String

            public init(directory: WatchDirectory, link: @escaping @Sendable (String, String) -> String) {
                (self.directory, self.link) = (directory, link)
            }
        }

        public init(executable: String, arguments: [String], stateFolder: String) {
            self.executable = executable
            self.arguments = arguments
            self.stateFolder = stateFolder
        }
    }

    let settings: Settings
    let hostKey: HostKey

    public init(settings: Settings, hostKey: HostKey) {
        self.settings = settings
        self.hostKey = hostKey
    }

    /// Serves until SIGTERM or SIGINT; then hangs up every session, reaps them and
    /// returns. `started` gets the address actually bound (port 0 picks one).
    public func run(started: (String, Int) -> Void) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let registry = SessionRegistry(limit: settings.maxSessions)
        let settings = self.settings
        let starter = SessionStarter(
            executable: settings.executable, arguments: settings.arguments,
            zygote: SessionZygote.forSessions(of: settings.executable, arguments: settings.arguments))
        let hostKey = self.hostKey.sshKey
        let server = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: Int32(ListenAddress.backlog))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let ssh = NIOSSHHandler(
                        role: .server(.init(hostKeys: [hostKey], userAuthDelegate: AnyoneWelcome())),
                        allocator: channel.allocator,
                        inboundChildChannelInitializer: { child, type in
                            // An interactive session only: no port forwarding, no other channel.
                            guard case .session = type else { return child.eventLoop.makeFailedFuture(SessionError("only sessions")) }
                            return child.eventLoop.makeCompletedFuture {
                                try child.pipeline.syncOperations.addHandler(
                                    DemoSessionHandler(settings: settings, registry: registry, starter: starter))
                            }
                        })
                    try channel.pipeline.syncOperations.addHandler(ssh)
                    try channel.pipeline.syncOperations.addHandler(CloseOnError())
                }
            }
            .bind(host: settings.host, port: settings.port)
            .wait()
        started(settings.host, server.localAddress?.port ?? settings.port)

        // SIGTERM / SIGINT close the listener; the sessions are hung up below.
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.close(promise: nil) }
            source.resume()
            return source
        }
        try server.closeFuture.wait()
        sources.forEach { $0.cancel() }
        // Each program saves and exits on the hangup; one that does not is killed.
        registry.endAll(because: SessionRegistry.serverStopped)
        try group.syncShutdownGracefully()
    }
}

/// Any user, with no password (the `none` method) or any other method: a demo.
final class AnyoneWelcome: NIOSSHServerUserAuthenticationDelegate, Sendable {
    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods { [.password, .publicKey] }

    func requestReceived(request: NIOSSHUserAuthenticationRequest, responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        responsePromise.succeed(.success)
    }
}

/// A connection that fails (a client that speaks no SSH) is closed, not left open.
final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
