@main
struct MorphhostCommand {
  static func main() {
    print("morphhost")
  }
}
