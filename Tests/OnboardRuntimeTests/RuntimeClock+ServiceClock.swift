import OnboardRuntime
import OnboardService

// In these tests the mock runs in process on the client's clock, as it did before it
// became a process of its own (which takes the offset with each call).
extension RuntimeClock: ServiceClock {}
