import Foundation
import TestSupport

/// What a backend's tests read from a running service: its address and its log.
protocol RunningService: AnyObject {
    var base: String { get }
    var output: String { get }
}

extension ServerProcess: RunningService {}

/// nginx (Debian's package; `.ci/run` installs it) in front of onboard-server instances,
/// round robin, saying each client's address in `X-Forwarded-For` as the README's block does.
final class NginxProxy {
    let port: Int
    private let pid: pid_t

    init(upstreams: [Int]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = ThrowawayPostgres.freePort()
        let servers = upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: " ")
        let configuration = """
            worker_processes 1;
            daemon off;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(folder)/body; proxy_temp_path \(folder)/proxy;
                fastcgi_temp_path \(folder)/fastcgi; uwsgi_temp_path \(folder)/uwsgi; scgi_temp_path \(folder)/scgi;
                upstream onboard { \(servers) }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://onboard; proxy_set_header Host $http_host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    }
                }
            }
            """
        try configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        guard let pid = Subprocess.spawn("/usr/sbin/nginx", ["-c", folder + "/nginx.conf", "-p", folder], output: folder + "/output.txt")
        else {
            throw POSIXError(.ENOENT)
        }
        self.pid = pid
        // Ready once it answers through to an instance.
        for _ in 0..<100 where ServerProcess.get(base + "/api/v1/health") != 200 { usleep(50_000) }
    }

    var base: String { "http://127.0.0.1:\(port)" }

    deinit {
        kill(pid, SIGTERM)
        Subprocess.wait(for: pid)
    }
}

/// Two onboard-server instances on one PostgreSQL database behind one address, as a team
/// running several instances would.
final class LoadBalancedServers: RunningService {
    let instances: [ServerProcess]
    private let proxy: NginxProxy

    init() throws {
        let url = try ThrowawayPostgres.shared.get().newDatabase()
        instances = try (0..<2).map { _ in try ServerProcess(arguments: ["--dev", "--database", url, "--trusted-proxy", "127.0.0.1"]) }
        proxy = try NginxProxy(upstreams: instances.map(\.port))
    }

    var base: String { proxy.base }
    var output: String { instances.map(\.output).joined(separator: "\n") }
}
