import Foundation

/// A demo server's sessions (serve-ssh, serve-web): one onboard per live session. They
/// are the server's children, or its zygote's when they are forked from one (DECISIONS
/// 60); the zygote itself is not a session.
public enum DemoServerSessions {
    public static func of(server pid: pid_t) -> [pid_t] {
        children(of: pid).flatMap { child in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))) ?? Data()
            let isZygote = command.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "--session-zygote" }
            return isZygote ? children(of: child) : [child]
        }
    }

    static func children(of pid: pid_t) -> [pid_t] {
        Subprocess.run("/usr/bin/pgrep", ["-P", "\(pid)"]).output.split(separator: "\n").compactMap { pid_t($0) }
    }
}

/// How many connections a server's listening socket lets wait to be accepted (`ss`, from
/// iproute2: a listening socket's Send-Q is its backlog), and the most the kernel allows.
public enum ListenQueue {
    public static func length(port: Int) -> Int? {
        Subprocess.run("/usr/bin/env", ["ss", "-Hltn", "sport = :\(port)"]).output.split(separator: "\n").first.flatMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 2 ? Int(fields[2]) : nil
        }
    }

    public static var kernelLimit: Int? {
        (try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
