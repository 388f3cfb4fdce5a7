import FoundationEssentials

/// A JSON object read as `[String: Any]`, as `JSONSerialization` gave it (strings,
/// whole numbers as `Int`, others as `Double`, booleans, arrays and objects; a null is
/// left out), with FoundationEssentials' decoder: for files read by key, not by type.
enum JSONObject {
    static func read(_ data: Data) -> [String: Any]? {
        (try? JSONDecoder().decode(AnyJSON.self, from: data))?.value as? [String: Any]
    }

    private struct AnyJSON: Decodable {
        let value: Any?

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = nil
            } else if let flag = try? single.decode(Bool.self) {
                value = flag
            } else if let whole = try? single.decode(Int.self) {
                value = whole
            } else if let number = try? single.decode(Double.self) {
                value = number
            } else if let text = try? single.decode(String.self) {
                value = text
            } else if let array = try? single.decode([AnyJSON].self) {
                value = array.compactMap(\.value)
            } else {
                value = try single.decode([String: AnyJSON].self).compactMapValues(\.value)
            }
        }
    }
}
