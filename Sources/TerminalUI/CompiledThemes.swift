enum CompiledThemes {
    static func theme(_ name: String) -> Theme? { nil }
}
