import Hummingbird

/// The pages: the session (`/`), a watcher's (`/watch`, the token in the address'
/// fragment, which browsers never send), "the demo is full", and their scripts and styles.
/// No text from a visitor or a session is ever put into a page.
struct WebPages: Sendable {
    let assets: XtermAssets
    let sessions: WebSessions

    func register(on router: Router<WebDemoContext>) {
        router.get("/") { _, _ -> Response in
            if sessions.settings.watchOnly {
                return Self.page(
                    status: .notFound, title: "Watch links only",
                    notice: "This server shows the sessions of an SSH demo to those with a watch link.")
            }
            if sessions.isFull {
                return Self.page(
                    status: .serviceUnavailable, title: "The demo is full",
                    notice: sessions.fullMessage)
            }
            return Self.page(mode: "session", title: "Onboard")
        }
        router.get("/watch") { _, _ in Self.page(mode: "watch", title: "Onboard (watching)") }
        router.get("/assets/xterm.js") { _, _ in Self.file(assets.script, type: "text/javascript; charset=utf-8") }
        router.get("/assets/xterm.css") { _, _ in Self.file(assets.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/assets/onboard-web.js") { _, _ in Self.file(WebAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/assets/onboard-web.css") { _, _ in Self.file(WebAssets.stylesheet, type: "text/css; charset=utf-8") }
    }

    static func page(mode: String, title: String) -> Response {
        html(
            .ok,
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <link rel="stylesheet" href="/assets/xterm.css">
            <link rel="stylesheet" href="/assets/onboard-web.css">
            </head>
            <body data-mode="\(mode)">
            <div id="terminal"></div>
            <div id="bar"><span id="status"></span><span><span id="share"></span> <button id="share-button" hidden>Share a watch link</button></span></div>
            <script src="/assets/xterm.js"></script>
            <script src="/assets/onboard-web.js"></script>
            </body>
            </html>
            """)
    }

    static func page(status: HTTPResponse.Status, title: String, notice: String) -> Response {
        html(
            status,
            """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(title)</title><link rel="stylesheet" href="/assets/onboard-web.css"></head>
            <body><main class="notice"><h1>\(title)</h1><p>\(notice)</p></main></body>
            </html>
            """)
    }

    private static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        file(text, type: "text/html; charset=utf-8", status: status)
    }

    private static func file(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
