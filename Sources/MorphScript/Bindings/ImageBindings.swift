import CLua
import CMorphLua
import Foundation
import MorphCore

/// `morph.image`'s file access: a PNG beside the plugin, confined as `morph.import` is
/// (real paths inside the plugin's folder, no `..`, no absolute name, no link leading
/// out), its size measured and its header read before anything else. The handle it makes
/// is charged the decoded size (4 bytes a pixel) to the plugin's memory account for as
/// long as the plugin keeps it; the render layer decodes the file once per version.
enum ImageBindings {
  static let type = ObjectType<ImageSource>(name: "morph.Image")
  /// The largest side accepted, in pixels (Cairo's own image limit is 32767).
  static let maxSide = 16384

  static func define(_ lua: OpaquePointer) { type.define(lua, methods: []) }

  /// `open(name)` → a `morph.Image` handle; the same handle while the file is unchanged.
  static let open: morph_hostfn = { lua in
    hostCall(lua, "image") { a in
      let state = LuaState.owner(of: a.lua)
      let name = try a.string(1)
      guard let directory = state.moduleDirectory else {
        throw a.error(1, "image is only available to plugins loaded from a file")
      }
      try ModuleFile.checkName(name, what: "an image name", args: a)
      let path = try ModuleFile.path(of: name, in: directory, args: a)
      guard access(path, F_OK) == 0 else {
        throw a.error(1, "no image '\(name)' in the plugin's folder")
      }
      let file = try ModuleFile(path: path, folder: directory, name: name, args: a)
      // Watched, so saving the image reloads the plugin, which reads it again.
      if !state.importedFiles.contains(path) { state.importedFiles.append(path) }
      let stamp = "\(file.modified)-\(file.size)"
      if let known = state.images[file.realPath], known.stamp == stamp {
        state.push(known.handle)
        return 1
      }
      guard morph_fits(a.lua, file.size) != 0 else { throw a.outOfMemory() }
      let (width, height) = try pngSize(
        file.read(name: name, limits: state.limits, args: a), name: name, args: a)
      let source = ImageSource(
        path: file.realPath, pixelWidth: width, pixelHeight: height, stamp: stamp)
      try a.push(source, as: type, bytes: width * height * 4)
      lua_pushvalue(a.lua, -1)
      state.images[file.realPath] = (stamp, LuaRef(popping: state))
      return 1
    }
  }

  /// The width and height of a PNG the host will decode: the whole file checked
  /// (`PNGCheck`: its chunks and their CRCs, the header, the palette, the inflated image
  /// data and its row filters) before the render layer hands it to Cairo, so a broken
  /// file is refused here, at the plugin's line, with its cause.
  static func pngSize(_ bytes: [UInt8], name: String, args a: LuaArgs) throws(ArgumentError)
    -> (Int, Int)
  {
    let png: PNGCheck
    do {
      png = try PNGCheck(bytes)
    } catch {
      throw a.error(
        1, error.notPNG ? "'\(name)' is not a PNG file" : "'\(name)' is not a valid PNG: \(error)")
    }
    let (width, height) = (png.width, png.height)
    guard width <= maxSide, height <= maxSide else {
      throw a.error(
        1, "'\(name)' is \(width)×\(height) pixels; an image may be 1…\(maxSide) a side")
    }
    // The check holds the inflated data for a moment: it must fit what is left of the cap.
    guard let inflated = png.inflatedSize, morph_fits(a.lua, inflated) != 0 else {
      throw a.outOfMemory()
    }
    do {
      try png.checkImageData()
    } catch {
      throw a.error(1, "'\(name)' is not a valid PNG: \(error)")
    }
    return (width, height)
  }
}

extension LuaState {
  /// Calls a shape's path function (`Lua/nodes.lua` wraps the plugin's, checking what it
  /// returns) with the size layout gave the shape, under the plugin's limits.
  func shapePath(_ function: LuaRef, in size: Size) throws(SceneError) -> Path {
    let results: [LuaValue]
    do {
      results = try call(function, [.number(size.width), .number(size.height)])
    } catch {
      throw SceneError(error.message, at: error.location)
    }
    guard case .other(let ref)? = results.first else {
      throw SceneError("path function returned nothing")
    }
    push(ref)
    defer { morph_pop(lua, 1) }
    guard let path = PathBindings.type.value(lua, at: -1) else {
      throw SceneError("path function returned no morph.Path")
    }
    guard path.isFinite else { throw SceneError("path function returned non-finite points") }
    return path
  }
}
