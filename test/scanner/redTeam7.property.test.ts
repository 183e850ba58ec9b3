// The seventh red team's engine classes that no test machine can run (the attacker corpus runs the others:
// fixtures/attackProjects11.ts), judged by the script analysis alone, each with the engine source that shows
// the behaviour (Godot 3.2.3); and properties over the loaders' path tables. No Godot is started here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"
import { lines } from "./fixtures/godotProjects.ts"

const ready = (...body: ReadonlyArray<string>): string => lines("extends Node", "", "func _ready():", ...body)
const errors = (source: string, grammar: 3 | 4 = 3): ReadonlyArray<string> =>
  hitsIn(source, {}, grammar)
    .filter((h) => h.split(" ")[1] === "error")
    .map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("engine classes of the seventh red team, by the analysis", () => {
  it.each([
    // modules/upnp/upnp_device.cpp: query_external_address hands igd_control_url to miniupnpc's UPNP_GetExternalIPAddress, an HTTP POST to that URL.
    ["UPNPDevice", ready("\tvar d = UPNPDevice.new()", '\td.igd_control_url = "http://127.0.0.1:9/x"', "\td.query_external_address()"), ["4 raw-networking"]],
    // modules/upnp/upnp.cpp: discover sends SSDP over UDP; add_port_mapping asks the gateway over HTTP.
    ["UPNP", ready("\tvar u = UPNP.new()", "\tu.discover()", "\tu.add_port_mapping(7777)"), ["4 raw-networking"]],
    // core/crypto/crypto.cpp (CryptoKeyMbedTLS::load): FileAccess::open(path, READ).
    ["CryptoKey.load", ready("\tvar k = CryptoKey.new()", '\tk.load("/home/player/.ssh/id_rsa")'), ["5 filesystem-outside-sandbox"]],
    // scene/resources/dynamic_font.cpp: set_font_path keeps the path that _load opens with FileAccess::open.
    ["DynamicFontData.font_path", ready("\tvar f = DynamicFontData.new()", '\tf.font_path = "/home/player/a.ttf"', '\tf.set_font_path("/home/player/b.ttf")'), ["5 filesystem-outside-sandbox", "6 filesystem-outside-sandbox"]],
    // modules/theora/video_stream_theora.cpp: set_file opens the path with FileAccess::open on playback.
    ["VideoStreamTheora.file", ready("\tvar v = VideoStreamTheora.new()", '\tv.set_file("/home/player/v.ogv")', '\tv.file = "/home/player/w.ogv"'), ["5 filesystem-outside-sandbox", "6 filesystem-outside-sandbox"]],
    // scene/resources/texture.cpp: StreamTexture::load opens the path with FileAccess::open.
    ["StreamTexture.load", ready("\tvar t = StreamTexture.new()", '\tt.load("/tmp/x.stex")'), ["5 filesystem-outside-sandbox"]],
    // scene/resources/font.cpp: BitmapFont::create_from_fnt loads each page with ResourceLoader::load (any resource, a script too).
    ["BitmapFont.create_from_fnt", ready("\tvar b = BitmapFont.new()", '\tb.create_from_fnt("user://f.fnt")'), ["5 runtime-code-loading"]],
    // core/os/os.cpp: print_all_resources opens its path with FileAccess::WRITE.
    ["OS.print_all_resources", ready('\tOS.print_all_resources("/tmp/list.txt")'), ["4 filesystem-outside-sandbox"]],
  ])("%s outside the sandbox is an error at its line", (_name, source, expected) => {
    expect(errors(source)).toEqual(expected)
  })

  it.each([
    ["Godot 4 static loaders and probes", ready('\tvar i = Image.load_from_file("/etc/x.png")', '\tprint(FileAccess.file_exists("/etc/passwd"), DirAccess.dir_exists_absolute("/etc"))'), ["4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox", "5 filesystem-outside-sandbox"]],
    ["Godot 4 CompressedTexture2D and PCKPacker", ready("\tvar t = CompressedTexture2D.new()", '\tt.load("/tmp/x.ctex")', "\tvar p = PCKPacker.new()", '\tp.add_file("res://a", "/etc/hostname")'), ["5 filesystem-outside-sandbox", "7 filesystem-outside-sandbox"]],
  ])("%s", (_name, source, expected) => {
    expect(errors(source, 4)).toEqual(expected)
  })

  it("a `file` key of the game's own data is no video path", () => {
    expect(errors(ready('\tvar d = {"file": ""}', '\td.file = "/not/read"'))).toEqual([])
  })
})

const LOADERS: ReadonlyArray<readonly [string, string]> = [
  ["CryptoKey", "k.load(P)"],
  ["X509Certificate", "k.load(P)"],
  ["Image", "k.load(P)"],
  ["StreamTexture", "k.load(P)"],
  ["PCKPacker", 'k.add_file("res://a", P)'],
  ["File", "k.file_exists(P)"],
  ["Directory", "k.dir_exists(P)"],
  ["Directory", "k.file_exists(P)"],
  ["VideoStreamTheora", "k.set_file(P)"],
  ["DynamicFontData", "k.font_path = P"],
]
const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/)

describe("properties of the loaders' path rules", () => {
  it("an absolute path, however spelled, is an error for every loader; a res:// or user:// path is not", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOADERS), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom("/", "C:/", "res://", "user://"), ([cls, call], parts, root) => {
        const path = `${root}${parts.join("/")}`
        const source = ready(`\tvar k = ${cls}.new()`, `\t${call.replace("P", JSON.stringify(path))}`)
        const outside = root === "/" || root === "C:/"
        expect(errors(source)).toEqual(outside ? ["5 filesystem-outside-sandbox"] : [])
      }),
      { numRuns: 200 },
    )
  })
})
