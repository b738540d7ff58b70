// swift-tools-version: 6.0
// libFuzzer targets for morphhost's input surfaces. A package of its own:
// its executables link libFuzzer, which only a `-sanitize=fuzzer` build has
// (`make fuzz` from the repository root builds and runs them).
import PackageDescription

let fuzzTarget = { (name: String) in
  Target.executableTarget(
    name: name,
    dependencies: [
      "FuzzSupport",
      .product(name: "MorphHost", package: "morphhost"),
      .product(name: "MorphScript", package: "morphhost"),
      .product(name: "MorphCore", package: "morphhost"),
    ])
}

let package = Package(
  name: "Fuzz",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "morphhost", path: "..")],
  targets: [
    .target(name: "FuzzSupport"),
    fuzzTarget("FuzzInputScript"),
    fuzzTarget("FuzzSetValues"),
    fuzzTarget("FuzzScene"),
    fuzzTarget("FuzzMorphAPI"),
    fuzzTarget("FuzzLibraryDiff"),
    fuzzTarget("FuzzTestFile"),
  ],
  swiftLanguageModes: [.v6]
)
