import CourierDiskCache
import Testing

@Suite struct CacheDirectoryTests {
    @Test(
        arguments: [
            (["XDG_CACHE_HOME": "/xdg", "HOME": "/home/ada"], "/xdg"),
            (["XDG_CACHE_HOME": "/xdg/", "HOME": "/home/ada"], "/xdg"),
            (["XDG_CACHE_HOME": "relative", "HOME": "/home/ada"], "/home/ada/.cache"),
            (["XDG_CACHE_HOME": "", "HOME": "/home/ada/"], "/home/ada/.cache"),
            (["HOME": "/"], "/.cache"),
            (["XDG_CACHE_HOME": "/"], "/"),
            (["HOME": "home"], nil),
            ([:], nil),
        ] as [([String: String], String?)]
    )
    func followsTheXDGRules(environment: [String: String], expected: String?) {
        #expect(CacheDirectory.userCacheDirectory(environment: environment) == expected)
    }

    @Test func namesAFolderInIt() throws {
        let path = try CacheDirectory.userCacheDirectory(
            named: "com.example.images",
            environment: ["HOME": "/home/ada"]
        )
        #expect(path == "/home/ada/.cache/com.example.images")
    }

    @Test(arguments: ["", ".", "..", "a/b"])
    func rejectsNamesThatAreNotOneComponent(name: String) {
        let error = #expect(throws: DiskCacheError.self) {
            try CacheDirectory.userCacheDirectory(named: name, environment: ["HOME": "/home/ada"])
        }
        #expect(error?.code == .directoryUnavailable)
    }

    @Test func failsWithoutAnyCacheDirectory() {
        let error = #expect(throws: DiskCacheError.self) {
            try CacheDirectory.userCacheDirectory(named: "x", environment: [:])
        }
        #expect(error?.reason == "neither XDG_CACHE_HOME nor HOME is set")
    }
}

extension CacheDirectoryTests {
    @Test func namesAFolderInTheRootDirectory() throws {
        #expect(try CacheDirectory.userCacheDirectory(named: "x", environment: ["XDG_CACHE_HOME": "/"]) == "/x")
    }
}
