// The whole public API in one import: `import Morph` gives an app the core
// types, the Lua component model, rendering, hosting, the hot-reloading
// session and exporting, without naming the layers it does not care about.
@_exported import MorphCore
@_exported import MorphExport
@_exported import MorphHost
@_exported import MorphRender
@_exported import MorphScript
@_exported import MorphSession
