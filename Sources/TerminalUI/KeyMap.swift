import FlowEngine

/// The one key map every flow uses, and the help line made from it.
public enum KeyMap {
    /// Readline's keys for text (Ctrl-A/E/B/F/D/K/U/W/Y, Alt-B/F/D/Backspace) mean the
    /// same here; on widgets, Ctrl-A/E and Ctrl-B/F act as Home/End and Left/Right.
    public static func intent(for key: Key) -> Intent? {
        switch key {
        case .tab, .down: .focusNext
        case .backTab, .up: .focusPrevious
        case .left, .control("b"): .left
        case .right, .control("f"): .right
        case .enter: .activate
        case .escape: .back
        case .control("c"): .quit
        case .control("r"): .toggleReveal
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .home, .control("a"): .home
        case .end, .control("e"): .end
        case .backspace, .control("h"): .deleteBackward
        case .delete, .control("d"): .edit(.deleteForward)
        case .control("k"): .edit(.deleteToEnd)
        case .control("u"): .edit(.deleteToStart)
        case .control("w"): .edit(.deleteToBlankBackward)
        case .control("y"): .edit(.yank)
        case .character(let character): .insert(String(character))
        case .modified(let base, let modifiers): intent(for: base, with: modifiers)
        default: nil
        }
    }

    private static func intent(for base: Key, with modifiers: Key.Modifiers) -> Intent? {
        let byWord = modifiers.contains(.alt) || modifiers.contains(.control)
        switch base {
        case .left where byWord, .character("b") where modifiers == .alt: return .edit(.wordLeft)
        case .right where byWord, .character("f") where modifiers == .alt: return .edit(.wordRight)
        case .backspace where byWord, .control("h") where modifiers == .alt: return .edit(.deleteWordBackward)
        case .delete where byWord, .character("d") where modifiers == .alt: return .edit(.deleteWordForward)
        // Shift with a movement key moves as the key alone (there is no selection).
        case .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .delete, .backspace:
            return intent(for: base)
        default:
            return nil
        }
    }

    /// What the keys do on this screen, most useful first.
    public static func help(for view: ScreenView) -> [(keys: String, meaning: String)] {
        var items: [(String, String)] = []
        if view.busy {
            return [("Ctrl-C", "quit")]
        }
        if !view.options.isEmpty {
            items.append(("↑/↓", "choose"))
            items.append(("Enter", "select"))
        } else if !view.fields.isEmpty {
            // The focused widget's own keys first: they are what the user needs now.
            if let field = view.fields.first(where: \.focused) {
                if field.isPassword { items.append(("Ctrl-R", field.secret ? "show" : "hide")) }
                switch field.kind {
                case .date:
                    items.append(("←/→", "day"))
                    items.append(("PgUp/PgDn", "month"))
                    items.append(("Home/End", "year"))
                case .select:
                    items.append(("←/→", "change"))
                case .multi:
                    items.append(("←/→", "move"))
                    items.append(("Space", "pick"))
                case .slider:
                    items.append(("←/→", "adjust"))
                    items.append(("0-9", "type"))
                case .range:
                    items.append(("←/→", "adjust"))
                    items.append(("Space", "other end"))
                default:
                    break
                }
            }
            items.append(("Tab", "next field"))
            items.append(("Enter", view.buttons.isEmpty ? "next" : "next / press"))
        } else if !view.buttons.isEmpty {
            if view.buttons.count > 1 { items.append(("←/→", "move")) }
            items.append(("Enter", view.buttons.count == 1 ? view.buttons[0].label.lowercased() : "press"))
        }
        if view.canGoBack { items.append(("Esc", "back")) }
        if view.canSuspend { items.append(("Ctrl-Z", "suspend")) }
        items.append(("Ctrl-C", "quit"))
        return items
    }

    /// The help line, fitted to `width`: the least useful hints (suspend, then the
    /// others from the right) drop out before anything is cut; quit always stays.
    public static func helpLine(for view: ScreenView, ascii: Bool, width: Int = .max) -> String {
        var items = help(for: view).map { item in
            let keys = ascii ? item.keys.replacingOccurrences(of: "↑/↓", with: "Up/Down").replacingOccurrences(of: "←/→", with: "Left/Right") : item.keys
            return "\(keys) \(item.meaning)"
        }
        let separator = ascii ? " | " : " · "
        while items.count > 1, TextMetrics.width(of: items.joined(separator: separator)) > width {
            items.remove(at: items.count - 2)
        }
        return items.joined(separator: separator)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
