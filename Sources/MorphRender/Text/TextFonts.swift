import CPango
import Foundation

/// The fonts text is drawn in, loaded into a fontconfig configuration of their own, so a
/// frame looks the same on every machine whatever fonts it has installed: Inter (the UI font,
/// the closest Debian has to SF; Inter Display from 20 pt, where SF switches to SF Display),
/// then Noto Sans CJK for Chinese, Japanese and Korean, then Noto Color Emoji.
enum TextFonts {
  /// Folders searched before the standard ones; a front end sets them (the command line
  /// from `MORPH_FONT_DIRS`) before the first text is laid out, which reads them once.
  nonisolated(unsafe) static var extraFolders: [String] = []

  /// Folders searched for the files, in order: `extraFolders`, then where Debian's
  /// `fonts-inter`, `fonts-noto-cjk` and `fonts-noto-color-emoji` put them.
  static var folders: [String] {
    extraFolders + [
      "/usr/share/fonts/opentype/inter", "/usr/share/fonts/opentype/noto",
      "/usr/share/fonts/truetype/noto", "/Library/Fonts",
    ]
  }

  static let interStyles = [
    "Thin", "ExtraLight", "Light", "Regular", "Medium", "SemiBold", "Bold", "ExtraBold", "Black",
  ]

  /// Every file the set needs: Inter and Inter Display in each weight, upright and italic
  /// (Inter's regular italic is `Inter-Italic`), the two CJK weights, the emoji.
  static let files: [String] =
    ["Inter", "InterDisplay"].flatMap { family in
      interStyles.flatMap { style in
        ["\(family)-\(style).otf", "\(family)-\(style == "Regular" ? "" : style)Italic.otf"]
      }
    } + ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc", "NotoColorEmoji.ttf"]

  /// Pango's family list: the first that has a character draws it.
  static func families(size: Double) -> String {
    (size >= 20 ? "Inter Display," : "") + "Inter,Noto Sans CJK SC,Noto Color Emoji"
  }

  /// Fontconfig's rule that scales bitmap fonts (the colour emoji are 109 px bitmaps) to the
  /// size asked for: Debian's `10-scale-bitmap-fonts.conf`, which a private configuration
  /// does not read.
  static let scaleBitmaps = """
    <fontconfig><match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
    <edit name="pixelsizefixupfactor" mode="assign"><divide><name target="pattern">pixelsize\
    </name><name target="font">pixelsize</name></divide></edit></match>
    <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
    <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
    <edit name="matrix" mode="assign"><times><name>matrix</name><matrix>\
    <name>pixelsizefixupfactor</name><double>0</double><double>0</double>\
    <name>pixelsizefixupfactor</name></matrix></times></edit>
    <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name>\
    </divide></edit></match></fontconfig>
    """

  /// A configuration holding exactly the set's files, and the files it could not find. With
  /// none found it is nil: the machine's own configuration is used (goldens will differ).
  static func makeConfiguration() -> (config: OpaquePointer?, missing: [String]) {
    let manager = FileManager.default
    let folders = self.folders
    var found: [String] = []
    var missing: [String] = []
    for file in files {
      if let folder = folders.first(where: { manager.fileExists(atPath: "\($0)/\(file)") }) {
        found.append("\(folder)/\(file)")
      } else {
        missing.append(file)
      }
    }
    guard !found.isEmpty, let config = FcConfigCreate() else { return (nil, missing) }
    _ = FcConfigParseAndLoadFromMemory(config, scaleBitmaps, FcTrue)
    for path in found where FcConfigAppFontAddFile(config, path) == FcFalse {
      missing.append(path)
    }
    return (config, missing)
  }
}
