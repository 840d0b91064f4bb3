internal import CourierHTTP
internal import FoundationEssentials

/// How long a stored response stays fresh and how old it is (RFC 9111 §4.2), in seconds.
enum Freshness {
    /// The statuses RFC 9110 §15.1 defines as heuristically cacheable.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The share of the time since `Last-Modified` a response without explicit freshness stays
    /// fresh (RFC 9111 §4.2.2's "typical setting" of 10 %).
    static let heuristicFraction = 0.1

    /// The freshness lifetime of RFC 9111 §4.2.1 for a private cache: `max-age`, else `Expires`
    /// minus `Date`, else the heuristic (only for heuristically cacheable statuses or `public`),
    /// else zero. `s-maxage` applies to shared caches only and is ignored.
    static func lifetime(of response: HTTPResponse, responseTime: Date) -> Double {
        let control = CacheControl(response.headers)
        if let maxAge = control.seconds("max-age") { return Double(maxAge) }
        let date = dateValue(of: response, responseTime: responseTime)
        let expires = response.headers.values(for: "Expires")
        if !expires.isEmpty {
            // An invalid Expires (such as "0") or more than one means "already expired" (§5.3).
            guard expires.count == 1, let instant = HTTPDate.parse(expires[0].trimmingSpaces()) else { return 0 }
            return max(0, instant.timeIntervalSince(date))
        }
        guard heuristicallyCacheableStatuses.contains(response.status.code) || control.has("public"),
            let lastModified = response.headers["Last-Modified"].flatMap({ HTTPDate.parse($0.trimmingSpaces()) })
        else { return 0 }
        return max(0, date.timeIntervalSince(lastModified) * heuristicFraction)
    }

    /// The current age of RFC 9111 §4.2.3:
    ///
    ///     apparent_age = max(0, response_time - date_value)
    ///     response_delay = response_time - request_time
    ///     corrected_age_value = age_value + response_delay
    ///     corrected_initial_age = max(apparent_age, corrected_age_value)
    ///     resident_time = now - response_time
    ///     current_age = corrected_initial_age + resident_time
    static func currentAge(of entry: HTTPCacheEntry, now: Date) -> Double {
        let date = dateValue(of: entry.response, responseTime: entry.responseTime)
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedAgeValue = ageValue(of: entry.response) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(entry.responseTime))
        return correctedInitialAge + residentTime
    }

    /// `Age` in seconds (RFC 9111 §5.1); zero when absent or not a number.
    static func ageValue(of response: HTTPResponse) -> Double {
        guard let text = response.headers.values(for: "Age").first?.trimmingSpaces(), !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return 0 }
        return Double(Int(text) ?? Int(Int32.max))
    }

    /// `Date`, or the time the response arrived when it has none (RFC 9110 §6.6.1 lets a recipient
    /// with a clock assume it).
    static func dateValue(of response: HTTPResponse, responseTime: Date) -> Date {
        response.headers["Date"].flatMap { HTTPDate.parse($0.trimmingSpaces()) } ?? responseTime
    }
}
