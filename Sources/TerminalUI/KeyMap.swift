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

    /// How much a hint matters when the help line must be cut: lower stays longer.
    enum Weight: Int, Comparable {
        /// Ctrl-C: always shown.
        case quit
        /// The key that moves the user forward.
        case forward
        /// PgUp/PgDn over a body longer than the screen.
        case reading
        case widget
        case moving
        case back
        case suspend
        case editing

        static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the keys do on this screen, in the order shown.
    public static func help(for view: ScreenView) -> [(keys: String, meaning: String)] {
        weightedHelp(for: view).map { ($0.keys, $0.meaning) }
    }

    static func weightedHelp(for view: ScreenView) -> [(keys: String, meaning: String, weight: Weight)] {
        var items: [(String, String, Weight)] = []
        if view.busy {
            // Waiting on a call: only what works while waiting (issue 32: Ctrl-Z did, unsaid).
            return (view.canSuspend ? [("Ctrl-Z", "suspend", .suspend)] : []) + [("Ctrl-C", "quit", .quit)]
        }
        if !view.options.isEmpty {
            items.append(("↑/↓", "choose", .moving))
            items.append(("Enter", "select", .forward))
        } else if !view.fields.isEmpty {
            // The focused widget's own keys first: they are what the user needs now.
            let focusedIndex = view.fields.firstIndex(where: \.focused)
            if let index = focusedIndex {
                for hint in view.fields[index].keyHints {
                    let weight: Weight =
                        switch hint.role {
                        case .widget: .widget
                        case .forward: .forward
                        case .editing: .editing
                        }
                    items.append((hint.keys, hint.meaning, weight))
                }
            }
            items.append(("Tab", "next field", .moving))
            let submits = focusedIndex == view.fields.count - 1 && view.fields.last?.kind.editsAsText == true
            // Enter moves to the next field, submits from the last text field, or
            // presses the focused button.
            let enter = focusedIndex == nil ? "press" : submits ? view.buttons.first?.label.lowercased() ?? "next" : "next"
            items.append(("Enter", enter, .forward))
        } else if !view.buttons.isEmpty {
            if view.buttons.count > 1 { items.append(("←/→", "move", .moving)) }
            items.append(("Enter", view.buttons.count == 1 ? view.buttons[0].label.lowercased() : "press", .forward))
        }
        // Short, so it fits beside Enter at 40 columns: the text is what the user reads.
        if view.moreBelow {
            items.append(("PgDn", "more", .reading))
        } else if view.moreAbove {
            items.append(("PgUp", "up", .reading))
        }
        if view.canGoBack { items.append(("Esc", "back", .back)) }
        if view.canSuspend { items.append(("Ctrl-Z", "suspend", .suspend)) }
        items.append(("Ctrl-C", "quit", .quit))
        return items
    }

    /// The help line, fitted to `width`: the least useful hints (suspend, then editing)
    /// drop out first; then a long button name on Enter becomes "press" (the button shows
    /// its name), so `PgDn more` and `Esc back` keep their place; then back, a widget's
    /// keys, Tab. The key that moves the user forward and quit stay.
    public static func helpLine(for view: ScreenView, ascii: Bool, width: Int = .max) -> String {
        var items = weightedHelp(for: view).map { item in
            let keys =
                ascii
                ? item.keys.replacingOccurrences(of: "↑/↓", with: "Up/Down").replacingOccurrences(of: "←/→", with: "Left/Right") : item.keys
            return (text: "\(keys) \(item.meaning)", weight: item.weight)
        }
        let separator = ascii ? " | " : " · "
        while TextMetrics.width(of: items.map(\.text).joined(separator: separator)) > width,
            let weakest = items.filter({ $0.weight != .quit }).map(\.weight).max()
        {
            if weakest < .suspend,
                let forward = items.firstIndex(where: { $0.weight == .forward && $0.text.hasPrefix("Enter ") && $0.text != "Enter press" }),
                items[forward].text.split(separator: " ").count > 2
            {
                items[forward].text = "Enter press"
                continue
            }
            guard let index = items.lastIndex(where: { $0.weight == weakest }) else { break }
            items.remove(at: index)
        }
        return items.map(\.text).joined(separator: separator)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
