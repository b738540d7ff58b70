/// Escape sequences for drawing in a terminal (VT100/xterm).
public enum ANSI {
  /// The escape character.
  public static let escape = "\u{1B}"
  /// Control Sequence Introducer, `ESC[`.
  public static let csi = "\u{1B}["

  /// Resets colours and text attributes (SGR 0).
  public static let reset = "\u{1B}[0m"

  /// Switches to the alternate screen so the user's scrollback survives a live view.
  public static let enterAlternateScreen = "\u{1B}[?1049h"
  /// Returns from the alternate screen.
  public static let leaveAlternateScreen = "\u{1B}[?1049l"

  /// Hides the cursor.
  public static let hideCursor = "\u{1B}[?25l"
  /// Shows the cursor.
  public static let showCursor = "\u{1B}[?25h"

  /// Clears the whole screen (the cursor does not move).
  public static let clearScreen = "\u{1B}[2J"
  /// Moves the cursor to the top-left cell.
  public static let home = "\u{1B}[H"

  /// Moves the cursor to `row`, `col`, both 1-based as in the terminal's own numbering.
  public static func moveTo(row: Int, col: Int) -> String {
    "\u{1B}[\(row);\(col)H"
  }

  /// Reports button presses (1000), drags (1002) and motion with no button down (1003,
  /// xterm's any-event tracking, for hover) in SGR encoding (1006), which has no 223-column
  /// limit.
  public static let enableMouse = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1003h\u{1B}[?1006h"
  /// Undoes `enableMouse`, in reverse order.
  public static let disableMouse = "\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l"
}
