// swift-tools-version: 6.0
// morphhost: hosts animated UI components written in Lua.
import PackageDescription

let package = Package(
  name: "morphhost",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "morphhost", targets: ["morphhost"]),
    .library(name: "MorphCore", targets: ["MorphCore"]),
    .library(name: "MorphScript", targets: ["MorphScript"]),
    .library(name: "MorphRender", targets: ["MorphRender"]),
    .library(name: "MorphHost", targets: ["MorphHost"]),
  ],
  targets: [
    // C libraries, found through pkg-config; the providers tell SwiftPM what to suggest.
    .systemLibrary(
      name: "CLua", pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]),
    .systemLibrary(
      name: "CCairo", pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),

    // Pure Swift: geometry, colour, easing, springs, paths. No C, no Lua.
    .target(name: "MorphCore"),
    // The only layer that touches the Lua C API.
    .target(
      name: "MorphScript", dependencies: ["MorphCore", "CLua"],
      resources: [
        .embedInCode("Lua/sandbox.lua"), .embedInCode("Lua/inspect.lua"),
        .embedInCode("Lua/paths.lua"), .embedInCode("Lua/nodes.lua"),
        .embedInCode("Lua/component.lua"), .embedInCode("Lua/morph.meta.lua"),
        .embedInCode("Lua/support.lua"),
      ]),
    // Render backends: Cairo raster, terminal text, JSON. Never sees Lua.
    .target(name: "MorphRender", dependencies: ["MorphCore", "CCairo"]),
    // Runs components: virtual clock, input and gestures, frames, hot reload.
    .target(name: "MorphHost", dependencies: ["MorphCore", "MorphScript", "MorphRender"]),
    .executableTarget(
      name: "morphhost", dependencies: ["MorphCore", "MorphScript", "MorphRender", "MorphHost"],
      resources: [.embedInCode("Bench/node_build.lua")]),

    .testTarget(name: "MorphCoreTests", dependencies: ["MorphCore"]),
    .testTarget(name: "MorphScriptTests", dependencies: ["MorphScript", "MorphCore"]),
    // Goldens are read through #filePath, not bundled.
    .testTarget(
      name: "MorphRenderTests", dependencies: ["MorphRender", "MorphCore"], exclude: ["Goldens"]),
    .testTarget(
      name: "MorphHostTests",
      dependencies: ["MorphHost", "MorphScript", "MorphCore", "MorphRender"],
      exclude: ["Goldens"]),
    .testTarget(
      name: "morphhostTests", dependencies: ["morphhost", "MorphRender"],
      exclude: ["Fixtures", "Goldens"]),
  ],
  swiftLanguageModes: [.v6]
)
