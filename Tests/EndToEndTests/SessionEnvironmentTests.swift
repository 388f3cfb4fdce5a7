import DemoSessions
import Testing

/// A demo session's environment: the server's, less whatever reaches the desktop of whoever
/// runs it (display, session bus, agents), its secrets kept in its own folder.
@Suite struct SessionEnvironmentTests {
    @Test func aSessionGetsNothingThatReachesTheServersDesktop() {
        let desktop = [
            "PATH": "/usr/bin", "HTTPS_PROXY": "http://proxy:3128", "LANG": "en_GB.UTF-8", "ONBOARD_SECRET_STORE": "keyring",
            "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XAUTHORITY": "/home/p/.Xauthority",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "XDG_RUNTIME_DIR": "/run/user/1000",
            "SSH_AUTH_SOCK": "/run/user/1000/ssh-agent", "GPG_AGENT_INFO": "/run/user/1000/gnupg/S.gpg-agent:0:1",
        ]
        let session = SessionEnvironment.make(term: "xterm-256color", connection: "192.0.2.7 5000 127.0.0.1 8022", server: desktop)
        #expect(session["PATH"] == "/usr/bin" && session["HTTPS_PROXY"] == "http://proxy:3128" && session["LANG"] == "en_GB.UTF-8")
        for name in [
            "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
        ] {
            #expect(session[name] == nil, "\(name)")
        }
        #expect(session["ONBOARD_SECRET_STORE"] == "file", "the server's own choice is not the visitor's")
        #expect(session["TERM"] == "xterm-256color" && session["SSH_CONNECTION"] == "192.0.2.7 5000 127.0.0.1 8022")
    }
}
