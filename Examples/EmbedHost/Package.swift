// swift-tools-version: 6.0
// An app that embeds morphhost as a library: the same API the CLI uses.
import PackageDescription

let package = Package(
  name: "EmbedHost",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "morphhost", path: "../..")],
  targets: [
    .executableTarget(
      name: "EmbedHost",
      // One product: the `Morph` module re-exports every layer.
      dependencies: [.product(name: "Morph", package: "morphhost")])
  ],
  swiftLanguageModes: [.v6]
)
