/// A component (`BEGIN:VTODO` … `END:VTODO`) with its properties in the order they came and its
/// sub-components. Editing one in place and serialising it keeps everything else as it was, so
/// what other clients wrote (their X- properties, alarm UIDs, ACKNOWLEDGED) survives a write.
public struct Component: Hashable, Sendable {
    public var name: String
    public var properties: [Property]
    public var components: [Component]

    public init(_ name: String, properties: [Property] = [], components: [Component] = []) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
    }

    /// The first property called `name`.
    public func property(_ name: String) -> Property? {
        let upper = name.uppercased()
        return properties.first { $0.name == upper }
    }

    /// Every property called `name`, in order.
    public func properties(_ name: String) -> [Property] {
        let upper = name.uppercased()
        return properties.filter { $0.name == upper }
    }

    /// Replaces the first property called `property.name` where it stands (dropping any others
    /// of that name), or appends it.
    public mutating func set(_ property: Property) {
        guard let index = properties.firstIndex(where: { $0.name == property.name }) else {
            properties.append(property)
            return
        }
        properties[index] = property
        var seen = false
        properties.removeAll { candidate in
            guard candidate.name == property.name else { return false }
            defer { seen = true }
            return seen
        }
    }

    /// Sets `name` to `value`, keeping the parameters it has unless `parameters` are given.
    public mutating func set(_ name: String, _ value: String, parameters: [Parameter]? = nil) {
        var property = self.property(name) ?? Property(name, value)
        property.value = value
        if let parameters { property.parameters = parameters }
        set(property)
    }

    public mutating func remove(_ name: String) {
        let upper = name.uppercased()
        properties.removeAll { $0.name == upper }
    }

    /// Sub-components called `name`.
    public func components(_ name: String) -> [Component] {
        let upper = name.uppercased()
        return components.filter { $0.name == upper }
    }

    /// The component as folded content lines, each ending in CRLF.
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        out += "BEGIN:\(name)\r\n"
        for property in properties { out += LineFolding.fold(property.line) + "\r\n" }
        for component in components { component.write(into: &out) }
        out += "END:\(name)\r\n"
    }
}
