@testable import FlowEngine
import Testing

/// Stories compare `StoryState.lines`, a projection written by hand: a property added to
/// `FlowState` (or one of its parts) and not to the projection would go unchecked by
/// every story. This guard lists `FlowState`'s stored properties by reflection and fails
/// on any the projection neither reads nor says why a story need not state.
@Suite struct StoryStateGuardTests {
    /// The parts of `FlowState` whose own properties the projection reads one by one.
    static let parts: Set<String> = ["NavigationState", "AccountState", "FormState", "ChecklistState", "RenewalState", "CallTable"]

    static func storedPaths(of value: Any, prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let path = prefix + label
            if parts.contains(String(describing: type(of: child.value))) {
                paths.formUnion(storedPaths(of: child.value, prefix: path + "."))
            } else {
                paths.insert(path)
            }
        }
        return paths
    }

    @Test func theProjectionNamesEveryStoredPropertyOfTheState() {
        let stored = Self.storedPaths(of: FlowState())
        let named = StoryState.projected.union(StoryState.unstated.keys)
        #expect(stored.subtracting(named).isEmpty, "stored but not in StoryState.lines: \(stored.subtracting(named).sorted())")
        #expect(named.subtracting(stored).isEmpty, "named in StoryState but not stored: \(named.subtracting(stored).sorted())")
    }
}
