import Foundation
import ServiceAPI

/// The one rule both stores follow when an item is added to a list record, inside their
/// own transaction: what the stored JSON becomes, said once.
public enum RecordListAppend {
    /// The items of a stored list record; none when it is not a list.
    public static func items(of stored: String) -> [String] {
        guard case .list(let list)? = try? JSONDecoder().decode(FieldValue.self, from: Data(stored.utf8)) else { return [] }
        return list
    }

    /// The list with `item` at its end; `changed` false when it was there already (a
    /// retry). Refuses a record that is not a list, and a list past `maximumBytes`.
    public static func adding(
        _ item: String, to stored: String?, maximumBytes: Int
    ) throws -> (items: [String], json: String, changed: Bool) {
        var items: [String] = []
        if let stored {
            guard case .list(let list)? = try? JSONDecoder().decode(FieldValue.self, from: Data(stored.utf8)) else {
                throw ServiceError(.invalidInput, "That record is not a list, so nothing can be added to it.")
            }
            items = list
        }
        guard !items.contains(item) else { return (items, stored ?? "[]", false) }
        items.append(item)
        let json = String(decoding: try JSONEncoder().encode(FieldValue.list(items)), as: UTF8.self)
        guard json.utf8.count <= maximumBytes else { throw ServiceError(.invalidInput, "The record is too large.") }
        return (items, json, true)
    }
}
