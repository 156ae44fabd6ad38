// swift-tools-version:6.0
//
// An app's package that depends on LazyStackCore, built in debug: the proof
// that a dependent's debug build runs none of LazyStackCore's internal
// O(n) checks (they are switched on at run time by LazyStackCore's own tests
// only). Built and run by check.sh; not part of the LazyStackCore package.

import PackageDescription

let package = Package(
  name: "LazyStackDependent",
  dependencies: [.package(name: "LazyStackCore", path: "../..")],
  targets: [
    .executableTarget(
      name: "lazystack-dependent",
      dependencies: [.product(name: "LazyStackCore", package: "LazyStackCore")],
      path: "Sources"
    )
  ],
  swiftLanguageModes: [.v6]
)
