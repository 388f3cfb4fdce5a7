import Foundation
import TestSupport
import Testing

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

    /// `days` on, on the service's clock, as QA moves it: a server's own clock
    /// (`/dev/clock`), or on the mock the client's `--clock-offset`, which moves the
    /// mock's with it (a client's clock alone ends no session the service keeps). Returns
    /// what to add to the client's arguments.
    func movedOn(days: Int) -> String {
        guard let server else { return " --clock-offset \(days)d" }
        let moved = ServerProcess.post(server.base + "/api/v1/dev/clock", json: #"{"offset_seconds": \#(days * 86_400)}"#)
        #expect(moved == 200, "/dev/clock answered \(moved)")
        return ""
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

    /// A person's approval of a device sign-in, as a browser makes it (a form post, its
    /// redirects followed, its cookie kept): the code typed on the server's page, then,
    /// at the development provider, `account` signed in as, or Deny. True when the page
    /// says so. The headless browser's walk of the same pages is the device page's own test.
    func approveOnTheDevicePage(userCode: String, account: String, allow: Bool = true) -> Bool {
        guard let server else { return false }
        let script = #"""
            import http.cookiejar, re, sys, urllib.parse as p, urllib.request as u
            base, code, decision, account = sys.argv[1:5]
            browser = u.build_opener(u.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            def hidden(page):
                return [(k, v.replace("&quot;", '"').replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
                        for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)]
            page = browser.open(base + "/device", data=p.urlencode({"user_code": code}).encode(), timeout=20).read().decode()
            # The confirmation: Continue.
            page = browser.open(base + "/device/confirm", data=p.urlencode(hidden(page)).encode(), timeout=20).read().decode()
            fields = hidden(page)
            fields += [("decision", decision), ("email", account)]
            print(browser.open(base + "/dev-idp/authorize", data=p.urlencode(fields).encode(), timeout=20).read().decode())
            """#
        let page = Subprocess.run("/usr/bin/env", ["python3", "-c", script, server.base, userCode, allow ? "allow" : "deny", account])
            .output
        return page.contains(allow ? "You're signed in" : "Sign-in not approved")
    }
}
