// swift-tools-version:6.0
//
// LazyStackCore: the model behind a lazy stack (a virtualized list).
// No package dependencies: the toolchain's stdlib, Foundation and XCTest only.

import PackageDescription

// Internal consistency checks (`_checkInvariants()`) are not a build
// setting: a setting for debug builds would also apply to the debug build of
// every app that depends on this package. They are switched on at run time
// (`LazyStackInternalChecks.isEnabled`) by this package's own tests, the
// fuzzer and the soak's checks; see Tests/Dependent for the proof that a
// dependent package's debug build runs none.

let package = Package(
  name: "LazyStackCore",
  products: [
    .library(name: "LazyStackCore", targets: ["LazyStackCore"]),
    .executable(name: "bench", targets: ["bench"]),
    .executable(name: "lazystack-soak", targets: ["lazystack-soak"]),
    .executable(name: "lazystack-view", targets: ["lazystack-view"]),
  ],
  targets: [
    .target(
      name: "LazyStackCore"
    ),
    // The deliberately simple O(n) model of the same behaviour: the tests'
    // oracle and the benchmark's `naive` variant (one copy of it). Built with
    // cross-module optimization, so that its generic code is specialized for
    // the concrete ids of its callers (the model checks, the soak, the
    // benchmark) as an app's own list code would be: unspecialized, it spent
    // half its time in generic metadata and witness calls. It is optimized in
    // debug builds too (`swift test`: the model checks' oracle ran a fifth of
    // the suite's time unoptimized; the core stays a debug build, with its
    // internal checks). The flags are only here: the library product
    // (LazyStackCore) has none, so depending on it is unaffected.
    .target(
      name: "LazyStackReference",
      dependencies: ["LazyStackCore"],
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"]), .unsafeFlags(["-O"], .when(configuration: .debug))]
    ),
    // Seeded RNG and operation generators shared by tests and benchmark.
    .target(
      name: "LazyStackTestSupport",
      dependencies: ["LazyStackCore", "LazyStackReference"]
    ),
    .executableTarget(
      name: "bench",
      dependencies: ["LazyStackCore", "LazyStackReference", "LazyStackTestSupport"],
      path: "Benchmarks/bench"
    ),
    // The long soak: model checking of millions of random operations (release).
    .executableTarget(
      name: "lazystack-soak",
      dependencies: ["LazyStackCore", "LazyStackTestSupport"],
      path: "Benchmarks/soak"
    ),
    // A real consumer: a terminal viewer for huge files (model + headless
    // renderer in the library, the terminal in the executable).
    .target(
      name: "LazyStackView",
      dependencies: ["LazyStackCore"]
    ),
    .executableTarget(
      name: "lazystack-view",
      dependencies: ["LazyStackView", "LazyStackCore"]
    ),
    .testTarget(
      name: "LazyStackViewTests",
      dependencies: ["LazyStackView", "LazyStackCore"]
    ),
    .testTarget(
      name: "LazyStackCoreTests",
      dependencies: ["LazyStackCore", "LazyStackReference", "LazyStackTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
