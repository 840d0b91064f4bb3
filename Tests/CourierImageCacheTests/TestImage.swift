import CourierImageCache

/// An image whose cost the test chooses, so purge arithmetic reads as plain numbers.
struct TestImage: CacheableImage, Equatable {
    let name: String
    let memoryCost: Int

    init(_ name: String, cost: Int) {
        self.name = name
        self.memoryCost = cost
    }
}

extension AutoPurgingImageCache where Image == TestImage {
    /// The names of the images held, sorted.
    func names(_ candidates: [String]) -> [String] {
        candidates.filter { image(withIdentifier: $0) != nil }
    }
}
