import Foundation

/// xterm.js for the page, from Debian: node-xterm's CommonJS modules, wrapped at start
/// into one script with a small `require` (libjs-xterm's browser file is only a stub that
/// `require`s them), and libjs-xterm's stylesheet. Read once; served from memory.
public struct XtermAssets: Sendable {
    public static let moduleFolder = "/usr/share/nodejs/xterm/lib"
    public static let stylesheetPath = "/usr/share/javascript/xterm/xterm.css"
    /// Sizes the terminal to its element (node-xterm's `lib/addons` links here).
    public static let fitAddon = "/usr/share/javascript/xterm/addons/fit/fit.js"

    public let script: String
    public let stylesheet: String

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Throws `Missing`, saying which Debian package to install, when a part is absent.
    public static func load(modules: String = moduleFolder, stylesheet: String = stylesheetPath) throws -> XtermAssets {
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: modules)) ?? [])
            .filter { $0.hasSuffix(".js") && !$0.hasSuffix(".test.js") }.sorted()
        guard files.contains("public/Terminal.js") else {
            throw Missing(description: "xterm.js is not installed (\(modules)/public/Terminal.js): apt-get install node-xterm")
        }
        guard let fit = try? String(contentsOfFile: fitAddon, encoding: .utf8) else {
            throw Missing(description: "xterm.js' fit addon is not installed (\(fitAddon)): apt-get install libjs-xterm")
        }
        guard let css = try? String(contentsOfFile: stylesheet, encoding: .utf8) else {
            throw Missing(description: "xterm.js' stylesheet is not installed (\(stylesheet)): apt-get install libjs-xterm")
        }
        var script = [Self.loader]
        for file in files {
            let source = try String(contentsOfFile: modules + "/" + file, encoding: .utf8)
            let name = "lib/" + file.dropLast(3)
            script.append(Self.module(name, source))
        }
        script.append(Self.module("lib/addons/fit/fit", fit))
        script.append("})();")
        return XtermAssets(script: script.joined(separator: "\n"), stylesheet: css)
    }

    private static func module(_ name: String, _ source: String) -> String {
        "define(\"\(name)\", function (exports, require, module) {\n\(source)\n});"
    }

    /// CommonJS in the page: `xtermRequire("lib/public/Terminal")`, relative requires
    /// resolved against the requiring module's folder.
    static let loader = """
        (function () {
          var definitions = {}, loaded = {};
          function define(name, body) { definitions[name] = body; }
          function resolve(from, path) {
            var parts = from.split("/"); parts.pop();
            path.split("/").forEach(function (part) {
              if (part === "..") parts.pop(); else if (part !== ".") parts.push(part);
            });
            return parts.join("/").replace(/\\.js$/, "");
          }
          function load(name) {
            if (loaded[name]) return loaded[name].exports;
            if (!definitions[name]) throw new Error("xterm.js has no module " + name);
            var module = { exports: {} };
            loaded[name] = module;
            definitions[name](module.exports, function (path) { return load(resolve(name, path)); }, module);
            return module.exports;
          }
          window.xtermRequire = load;
        """
}
