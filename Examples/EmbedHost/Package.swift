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
      dependencies: [
        .product(name: "MorphHost", package: "morphhost"),
        .product(name: "MorphScript", package: "morphhost"),
        .product(name: "MorphRender", package: "morphhost"),
        .product(name: "MorphCore", package: "morphhost"),
        .product(name: "MorphExport", package: "morphhost"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
