// swift-tools-version: 6.1
// morphhost: hosts animated UI components written in Lua.
import PackageDescription

let package = Package(
  name: "morphhost",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "morphhost", targets: ["MorphCLI"]),
    .library(name: "MorphCore", targets: ["MorphCore"]),
    .library(name: "MorphScript", targets: ["MorphScript"]),
    .library(name: "MorphRender", targets: ["MorphRender"]),
    .library(name: "MorphHost", targets: ["MorphHost"]),
    .library(name: "MorphSession", targets: ["MorphSession"]),
    .library(name: "MorphExport", targets: ["MorphExport"]),
    // Everything an embedding app needs, in one import.
    .library(name: "Morph", targets: ["Morph"]),
  ],
  // On in development builds (`swift build`, `swift test`, `make bench`); `make install`
  // builds without it, so the shipped binary carries no reference programs.
  traits: [
    .trait(
      name: "ReferenceBenchmarks",
      description: "bench --export compiles a C + Cairo program and runs ffmpeg to compare"),
    .default(enabledTraits: ["ReferenceBenchmarks"]),
  ],
  targets: [
    // C libraries, found through pkg-config; the providers tell SwiftPM what to suggest.
    .systemLibrary(
      name: "CLua", pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]),
    .systemLibrary(
      name: "CCairo", pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
    // Text: Pango's layout and HarfBuzz's shaping, drawn with pangocairo; fontconfig for the
    // private font set.
    .systemLibrary(
      name: "CPango", pkgConfig: "pangocairo",
      providers: [.apt(["libpango1.0-dev"]), .brew(["pango"])]),
    // Sixel images for terminals that show them (libsixel's quantiser and encoder).
    .systemLibrary(
      name: "CSixel", pkgConfig: "libsixel",
      providers: [.apt(["libsixel-dev"]), .brew(["libsixel"])]),
    // morphhost's C side of Lua: limits, the error trampoline, the bounded library.
    .target(name: "CMorphLua", dependencies: ["CLua"]),
    // The preview's HTTP server. Debian ships no pkg-config file for it: the
    // module map links it by name from the system's default paths.
    .systemLibrary(
      name: "CCivetWeb", providers: [.apt(["libcivetweb-dev"]), .brew(["civetweb"])]),

    // Export encoders: deflate for PNG and APNG, palettes and GIF, animated WebP; libdeflate
    // also inflates the PNGs `morph.image` reads, to check them before Cairo decodes them.
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
    .systemLibrary(
      name: "CImageQuant", pkgConfig: "imagequant",
      providers: [.apt(["libimagequant-dev"]), .brew(["libimagequant"])]),
    // Debian's giflib has no pkg-config file: the module map links it by name.
    .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
    .systemLibrary(
      name: "CWebP", pkgConfig: "libwebpmux",
      providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    // `export --optimize`'s APNG deflate: zopfli's exhaustive search, smaller than any
    // libdeflate level. Debian ships no pkg-config file for it: linked by name.
    .systemLibrary(name: "CZopfli", providers: [.apt(["libzopfli-dev"]), .brew(["zopfli"])]),
    // The encoders' pixel loops (PNG row filters, frame differences).
    .target(name: "CMorphEncode"),

    // Pure Swift: geometry, colour, easing, springs, paths. No C, no Lua.
    .target(name: "MorphCore"),
    // The only layer that touches the Lua C API.
    .target(
      name: "MorphScript", dependencies: ["MorphCore", "CLua", "CMorphLua", "CDeflate"],
      // The bundled plugins' tests and goldens (`morphhost test Plugins/`) stay out of the
      // binary.
      exclude: [
        "Plugins/card_stack.test.lua", "Plugins/deck_fan.test.lua", "Plugins/flip.test.lua",
        "Plugins/ticket_tear.test.lua", "Plugins/card_stack.snapshots",
        "Plugins/deck_fan.snapshots", "Plugins/flip.snapshots", "Plugins/ticket_tear.snapshots",
      ],
      resources: [
        .embedInCode("Lua/sandbox.lua"), .embedInCode("Lua/inspect.lua"),
        .embedInCode("Lua/paths.lua"), .embedInCode("Lua/nodes.lua"),
        .embedInCode("Lua/component.lua"), .embedInCode("Lua/morph.meta.lua"),
        .embedInCode("Lua/support.lua"), .embedInCode("Lua/testing.lua"),
        // The bundled plugins (`Plugins/` is a link to this folder), so an
        // installed binary runs them from any folder.
        .embedInCode("Plugins/card_stack.lua"), .embedInCode("Plugins/deck_fan.lua"),
        .embedInCode("Plugins/flip.lua"), .embedInCode("Plugins/ticket_tear.lua"),
      ]),
    // Render backends: Cairo raster, text, terminal text and images, JSON, PNG
    // (deflate and the row filters). Never sees Lua.
    .target(
      name: "MorphRender",
      dependencies: ["MorphCore", "CCairo", "CPango", "CSixel", "CDeflate", "CMorphEncode"]),
    // Runs components: virtual clock, input and gestures, frames, hot reload.
    .target(name: "MorphHost", dependencies: ["MorphCore", "MorphScript", "MorphRender"]),
    // One hot-reloading session (load, watch, last good version, clock, input, diagnostics)
    // that the live view and the preview show: no terminal, no HTTP.
    .target(
      name: "MorphSession", dependencies: ["MorphCore", "MorphScript", "MorphRender", "MorphHost"]
    ),
    // Exporting: frame sources, the bounded pipeline, every format's encoder,
    // Lottie (vector animation, dotLottie's deflate), output files, video through
    // ffmpeg, and the one-call `Exporter`.
    .target(
      name: "MorphExport",
      dependencies: [
        "MorphCore", "MorphScript", "MorphRender", "MorphHost", "CImageQuant", "CGif", "CWebP",
        "CMorphEncode", "CDeflate", "CZopfli",
      ]),
    // `import Morph`: re-exports the libraries above, the whole public API.
    .target(
      name: "Morph",
      dependencies: [
        "MorphCore", "MorphScript", "MorphRender", "MorphHost", "MorphSession", "MorphExport",
      ]),
    // Development only (the ReferenceBenchmarks trait): the `bench --export` comparisons that
    // compile a C program and run ffmpeg. No product ships it.
    .target(name: "MorphBench", dependencies: ["MorphCore", "MorphRender"]),
    // Goldens for the test targets only; no product ships it. (The image comparison they
    // use is MorphRender's, which `morphhost test` shares.)
    .target(name: "MorphTestSupport", dependencies: ["MorphRender", "CSixel"]),
    // The command line, built as the `morphhost` program. (No folder may differ from
    // another only in case: macOS checks out on a case-insensitive file system.)
    .executableTarget(
      name: "MorphCLI",
      dependencies: [
        "MorphCore", "MorphScript", "MorphRender", "MorphHost", "MorphSession", "MorphExport",
        "CCivetWeb", .target(name: "MorphBench", condition: .when(traits: ["ReferenceBenchmarks"])),
      ],
      // What `morphhost new` writes: a Lua file, so luacheck lints it. The
      // preview's page and its Lua props reader, served from the binary. The
      // bench's node-building and pattern Lua.
      resources: [
        .embedInCode("Templates/component.lua"), .embedInCode("Templates/component.test.lua"),
        .embedInCode("Preview/Assets/player.html"), .embedInCode("Preview/Assets/index.html"),
        .embedInCode("Preview/Assets/preview.js"), .embedInCode("Preview/Assets/preview.css"),
        .embedInCode("Preview/Assets/props.lua"), .embedInCode("Preview/Assets/favicon.svg"),
        .embedInCode("Bench/node_build.lua"),
        .embedInCode("Bench/drawing_scene.lua"), .embedInCode("Bench/patterns.lua"),
      ],
      swiftSettings: [.define("REFERENCE_BENCHMARKS", .when(traits: ["ReferenceBenchmarks"]))]),

    .testTarget(name: "MorphCoreTests", dependencies: ["MorphCore"]),
    // The differential tests' generated calls run from the test binary.
    .testTarget(
      name: "MorphScriptTests", dependencies: ["MorphScript", "MorphCore", "CDeflate"],
      resources: [.embedInCode("Differential/cases.lua")]),
    // Goldens are read through #filePath, not bundled.
    .testTarget(
      name: "MorphRenderTests",
      dependencies: ["MorphRender", "MorphCore", "MorphTestSupport"], exclude: ["Goldens"]),
    // Exported files are read back by decoders that are not ours (giflib, ffprobe, libwebp's
    // tools; Lottie's schema and ThorVG through a Python helper beside the tests).
    .testTarget(
      name: "MorphExportTests",
      dependencies: [
        "MorphExport", "MorphRender", "MorphCore", "MorphHost", "MorphTestSupport", "CGif",
      ],
      exclude: ["lottie_check.py"]),
    .testTarget(
      name: "MorphHostTests",
      dependencies: ["MorphHost", "MorphScript", "MorphCore", "MorphRender", "MorphTestSupport"],
      exclude: ["Fixtures", "Goldens"]),
    .testTarget(
      name: "MorphSessionTests",
      dependencies: ["MorphSession", "MorphHost", "MorphScript", "MorphCore"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "MorphCLITests",
      dependencies: ["MorphCLI", "MorphExport", "MorphRender", "MorphSession", "MorphTestSupport"],
      exclude: ["Fixtures", "Goldens"]),
    .testTarget(name: "MorphTests", dependencies: ["Morph"]),
    .testTarget(
      name: "MorphTestSupportTests", dependencies: ["MorphTestSupport", "MorphRender", "MorphCore"]),
  ],
  swiftLanguageModes: [.v6]
)
