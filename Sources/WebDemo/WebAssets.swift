/// The page's own script and style, kept in the binary (the Debian package ships no
/// resource bundles).
enum WebAssets {
    /// The page's side of `onboard serve-web`.
    static let script = #"""
        // The page's side of `onboard serve-web`: a terminal (xterm.js) joined to one Onboard
        // session over a WebSocket. Binary frames carry the terminal's bytes both ways; text
        // frames carry JSON about the session (its size, its end, why it was refused).
        // Nothing the server sends is written to the page except through the terminal.
        (function () {
          "use strict";
          var Terminal = window.xtermRequire("lib/public/Terminal").Terminal;
          Terminal.applyAddon(window.xtermRequire("lib/addons/fit/fit"));

          var watching = document.body.getAttribute("data-mode") === "watch";
          var status = document.getElementById("status");
          var share = document.getElementById("share");
          var shareButton = document.getElementById("share-button");
          var term = new Terminal({ cursorBlink: !watching, disableStdin: watching, fontFamily: "monospace", fontSize: 15, scrollback: 0 });
          term.open(document.getElementById("terminal"));
          // Read by the tests through xterm.js' buffer, and by anyone curious in the console.
          window.onboardTerminal = term;

          var encoder = new TextEncoder();
          var decoder = new TextDecoder("utf-8");
          var socket = null;
          var ended = false;
          var attempts = 0;
          var KEY = "onboard-session";

          // Every status said, in order (read by the tests: a reconnect may say it briefly).
          window.onboardStatusSeen = [];
          function say(text) {
            status.textContent = text;
            if (text) window.onboardStatusSeen.push(text);
          }

          function fitToWindow() {
            if (!watching) term.fit();
          }

          function send(message) {
            if (socket && socket.readyState === WebSocket.OPEN) socket.send(message);
          }

          function hello() {
            if (watching) return { watch: location.hash.slice(1) };
            var saved = sessionStorage.getItem(KEY);
            var size = { columns: term.cols, rows: term.rows };
            if (saved) size.resume = saved; else size.start = true;
            return size;
          }

          function handle(message) {
            if (message.session) sessionStorage.setItem(KEY, message.session);
            if (message.watch) {
              // Shown on request only: a presenter sharing their screen does not hand it out.
              var link = location.origin + "/watch#" + message.watch;
              shareButton.hidden = false;
              shareButton.onclick = function () {
                share.textContent = share.textContent ? "" : "Watch link (read-only): " + link;
                shareButton.textContent = share.textContent ? "Hide the watch link" : "Share a watch link";
                term.focus();
              };
            }
            if (message.size && watching) term.resize(message.size.columns, message.size.rows);
            if (typeof message.watchers === "number" && !watching) {
              say(message.watchers === 0 ? "" : message.watchers + (message.watchers === 1 ? " person watching" : " people watching"));
            }
            if (message.ended) {
              ended = true;
              sessionStorage.removeItem(KEY);
              say(message.ended);
            }
            if (message.refused) {
              ended = true;
              sessionStorage.removeItem(KEY);
              say(message.refused);
            }
          }

          function connect() {
            var scheme = location.protocol === "https:" ? "wss:" : "ws:";
            socket = new WebSocket(scheme + "//" + location.host + "/terminal");
            socket.binaryType = "arraybuffer";
            socket.onopen = function () {
              attempts = 0;
              say(watching ? "Watching (read-only)" : "");
              socket.send(JSON.stringify(hello()));
            };
            socket.onmessage = function (event) {
              if (typeof event.data === "string") handle(JSON.parse(event.data));
              else term.write(decoder.decode(new Uint8Array(event.data), { stream: true }));
            };
            socket.onclose = function () {
              socket = null;
              if (ended) return;
              // A dropped connection (a laptop lid, a train): the session waits a minute for us.
              attempts += 1;
              if (attempts > 30) { say("The connection is lost. Reload the page to start again."); return; }
              say("Connection lost; reconnecting...");
              setTimeout(connect, Math.min(2000, 250 * attempts));
            };
          }

          term.on("data", function (data) { if (!watching) send(encoder.encode(data)); });
          term.on("resize", function (size) {
            if (!watching) send(JSON.stringify({ columns: size.cols, rows: size.rows }));
          });
          window.addEventListener("resize", fitToWindow);
          fitToWindow();
          term.focus();
          connect();
          // For the tests: drop the connection as a network would, without ending the session.
          window.onboardDropConnection = function () { if (socket) socket.close(); };
        })();
        """#

    static let stylesheet = #"""
        html, body { margin: 0; height: 100%; background: #1e1e1e; color: #ddd; font: 14px sans-serif; }
        body { display: flex; flex-direction: column; }
        #terminal { flex: 1; min-height: 0; padding: 4px; }
        #bar { display: flex; justify-content: space-between; gap: 1em; padding: 4px 8px; background: #2b2b2b; min-height: 1.4em; }
        #share { user-select: all; color: #9cf; }
        #share-button { font: inherit; color: #ddd; background: #3a3a3a; border: 1px solid #555; border-radius: 3px; cursor: pointer; }
        main.notice { max-width: 40em; margin: 4em auto; line-height: 1.5; }
        """#
}
