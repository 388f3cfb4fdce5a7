import Foundation
import TestSupport

/// Where a test's clients get their service: the embedded mock (one shared database
/// file, so two state folders are two devices on one backend) or an onboard-server.
final class Backend {
    /// The embedded mock, one server on SQLite, and two servers on one PostgreSQL behind
    /// nginx.
    static let kinds = ["mock", "server", "two-instances"]

    let server: (any RunningService)?
    let mockDatabase = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-backend-\(UUID().uuidString).sqlite").path

    init(_ kind: String) throws {
        server =
            switch kind {
            case "server": try ServerProcess()
            case "two-instances": try LoadBalancedServers()
            default: nil
            }
    }

    var arguments: String {
        if let server { return "--service \(server.base)" }
        return "--mock-db \(mockDatabase)"
    }

    /// The last SMS code the service sent, read as QA does: `onboard outbox` on the mock,
    /// `GET /api/v1/dev/outbox` on the server.
    func lastSMSCode() -> String? {
        if let server {
            let script =
                "import json,sys,urllib.request as u\nrows=[r for r in json.load(u.urlopen(sys.argv[1],timeout=20)) if r['kind']=='sms']\nprint(rows[-1]['code'] if rows else '')"
            let output = Subprocess.run("/usr/bin/env", ["python3", "-c", script, server.base + "/api/v1/dev/outbox"]).output
            let code = output.trimmingCharacters(in: .whitespacesAndNewlines)
            return code.isEmpty ? nil : code
        }
        let output = Subprocess.run(Tmux.binary, ["outbox", "--mock-db", mockDatabase, "--last", "1"]).output
        return output.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// A person's approval of a device sign-in on the server's page, as a browser sends
    /// it (a form post): true when the page says they are signed in. The headless
    /// browser's walk of the same page is the device page's own test.
    func approveOnTheDevicePage(userCode: String, account: String, allow: Bool = true) -> Bool {
        guard let server else { return false }
        let script = """
            import sys, urllib.parse as p, urllib.request as u
            form = p.urlencode({"user_code": sys.argv[2], "decision": sys.argv[3], "account": sys.argv[4]}).encode()
            print(u.urlopen(u.Request(sys.argv[1] + "/device/decide", data=form), timeout=20).read().decode())
            """
        let page = Subprocess.run("/usr/bin/env", ["python3", "-c", script, server.base, userCode, allow ? "allow" : "deny", account]).output
        return page.contains(allow ? "You're signed in" : "Sign-in not approved")
    }
}
