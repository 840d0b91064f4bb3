/// The signed-in user, as the API returns it.
public struct Profile: Codable, Sendable, Equatable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
