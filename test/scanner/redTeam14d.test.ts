// What red teamer 14d got past pckgate-scanner/12 with Godot 4 packs (scratch projects c01-c03, h03, h03b, f04, f05,
// g01, j01): Godot 4 cannot run here, so each pack is written by the test's pack writer and each test names the
// engine source that shows the behaviour (core/ and modules/gdscript/ of the 4.4-dev fork the dispatch table comes
// from, docs/scanner.md#dispatch-table, whose gdscript module is renamed voyscript; upstream 4.0-4.5 read the same).
import { describe, expect, it } from "vitest"
import { tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { scan4 } from "./support/scan.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends EngineGame", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const strings = (source: string, grammar: 3 | 4 = 4): ReadonlyArray<string> =>
  tokenize(source, grammar)
    .filter((t) => t.kind === "str")
    .map((t) => t.text)

describe("Godot 4: a backslash before a lone carriage return in a string swallows the next character", () => {
  // modules/gdscript/gdscript_tokenizer.cpp, GDScriptTokenizerText::string(), the escape branch (line 1046 of the
  // fork's copy): `case '\r': if (_peek() != '\n') { result += ch; _advance(); break; }`. The CR was taken as the
  // escape's code; `_advance()` then takes the character after it, a closing quote too, so the string runs on.
  const payload = `OS.execute("touch", ["/tmp/x"])`
  it.each([
    ["a plain string (c01)", `var s = "\\\r" + "; ${payload} #"`],
    ["a StringName (c02)", `var s = &"\\\r" + &"; ${payload} #"`],
    ["a multi-line string (c03)", `var s = """\\\r""" + """; ${payload} #"""`],
    ["the reverse spelling, where the swallowed backslash leaves the quote after it closing the string", `var s = "\\\r\\"; ${payload} # "`],
    ["single quotes", `var s = '\\\r' + '; ${payload} #'`],
  ])("%s: what follows is code, and OS.execute is an error at its line", async (_, line) => {
    expect(await scan4(script(line), 3)).toEqual(["res://main.gd:3 error os-process"])
  })

  it("keeps the backslash and a NUL in the value, swallows a character above U+FFFF whole, and keeps a LF after an escaped CR", () => {
    // `result += ch` (the backslash), then `result += escaped` (0: a NUL, which recent 4.x Strings refuse; a string
    // holding one is not constant past it, values.ts). A CR LF escape falls through to `case '\n'` without taking the LF,
    // which the loop then appends as a character of the string.
    expect(strings('x("a\\\r"b", "c\\\r😀", "d\\\r\ne")')).toEqual(["a\\\u0000b", "c\\\u0000", "d\ne"])
    // Godot 3 rejects `\` + CR ("Invalid escape sequence", gdscript_tokenizer.cpp of 3.2.3 and 3.5): the script never runs.
  })

  it("a string whose escaped CR the engine reads as one string stays one: no finding in the text it swallows", async () => {
    expect(await scan4(script('var s = "\\\r" + "is OS.execute named here?"', "print(s)"), 3)).toEqual([])
  })
})

describe("Godot 4.4+: ClassDB.class_call_static(class, method, …) calls the static method of the class it names", () => {
  // core/core_bind.cpp, ClassDB::class_call_static: `const MethodBind *bind = ::ClassDB::get_method(class_, method);`
  // … `return bind->call(nullptr, p_arguments + 2, p_argcount - 2, r_call_error);` (lines 1594-1599 of the fork).
  it("is judged as that class's method: FileAccess.open for writing and DirAccess's static writes outside user:// (h03, h03b)", async () => {
    const source = script(
      'var f = ClassDB.class_call_static(&"FileAccess", &"open", "/tmp/x", FileAccess.WRITE)', // 3
      'ClassDB.class_call_static("DirAccess", "remove_absolute", "/home/u/x")', // 4
      'ClassDB.class_call_static("DirAccess", "make_dir_recursive_absolute", "/tmp/y")', // 5
      'ClassDB.class_call_static("DirAccess", "copy_absolute", "user://a", "/home/u/.bashrc")', // 6
      'ClassDB.class_call_static("DirAccess", "rename_absolute", "user://a", "/home/u/b")', // 7
      'ClassDB.class_call_static("FileAccess", "create_temp", FileAccess.WRITE, "x", "gd", true)', // 8
      'ClassDB.class_call_static("JSON", "to_native", f.get_var(), true)', // 9
    )
    expect(await scan4(source, 3)).toEqual([3, 4, 5, 6, 7, 8].map((n) => `res://main.gd:${n} error filesystem-outside-sandbox`).concat(["res://main.gd:9 error json-to-native-objects"]))
  })

  it("a class or method named by a value that is not constant is a dynamic-dispatch error", async () => {
    const source = script("var d = JSON.parse_string(FileAccess.get_file_as_string(\"user://a.json\"))", 'ClassDB.class_call_static(d.c, "open", d.p)', 'ClassDB.class_call_static("FileAccess", d.m, d.p)')
    expect(await scan4(source, 3)).toEqual(["res://main.gd:4 error dynamic-dispatch", "res://main.gd:5 error dynamic-dispatch"])
  })

  it("what the static method gives is followed: text read from a file is data read at run time", async () => {
    // FileAccess.get_file_as_string is static (core/io/file_access.cpp, bind_static_method("FileAccess", …)): a path
    // read from user:// can name anything, so loading it is an error, not the warning a path built in code gets.
    const source = script('var next = ClassDB.class_call_static("FileAccess", "get_file_as_string", "user://next.txt")', "var level = load(next)")
    expect(await scan4(source, 3)).toEqual(["res://main.gd:4 error runtime-code-loading"])
  })

  it("an allowed static method through it stays allowed (reads and writes under user://, JSON without objects)", async () => {
    const source = script(
      'var f = ClassDB.class_call_static("FileAccess", "open", "user://save.json", FileAccess.WRITE)',
      'var ok = ClassDB.class_call_static("FileAccess", "file_exists", "user://save.json")',
      'var v = ClassDB.class_call_static("JSON", "to_native", JSON.parse_string("{}"))',
      'var t = ClassDB.class_call_static(&"Time", &"get_ticks_msec")',
    )
    expect(await scan4(source, 3)).toEqual([])
  })
})

describe("Godot 4.4+: create_temp writes in the operating system's temporary folder, outside user://", () => {
  // core/io/file_access.cpp, FileAccess::create_temp: `const String TEMP_DIR = OS::get_singleton()->get_temp_path();`
  // then `FileAccess::open(path, FileAccess::ModeFlags::WRITE, &err)` (lines 102-122 of the fork); core/io/dir_access.cpp,
  // DirAccess::create_temp: `DirAccess::open(OS::get_singleton()->get_temp_path())` then `make_dir(path)` (335-354).
  it("FileAccess.create_temp and DirAccess.create_temp are filesystem-outside-sandbox errors whatever their arguments (f04, f05, g01)", async () => {
    const source = script(
      'var f = FileAccess.create_temp(FileAccess.WRITE, "m", "gd", true)', // 3
      'f.store_string("extends RefCounted")', // 4
      "var d = DirAccess.create_temp()", // 5
      "var g = FileAccess.create_temp(FileAccess.READ)", // 6
    )
    expect(await scan4(source, 3)).toEqual(["res://main.gd:3 error filesystem-outside-sandbox", "res://main.gd:5 error filesystem-outside-sandbox", "res://main.gd:6 error filesystem-outside-sandbox"])
  })

  it("on an object of unknown class, create_temp is judged by its name; save() without a path stays the pack's own", async () => {
    const source = script('var files = get_meta("files")', "files.create_temp(FileAccess.WRITE)", 'var slot = get_meta("slot")', "slot.save()")
    expect(await scan4(source, 3)).toEqual(["res://main.gd:4 error filesystem-outside-sandbox"])
  })

  it("a path built on OS.get_temp_dir() is outside user:// too", async () => {
    expect(await scan4(script('var f = FileAccess.open(OS.get_temp_dir().path_join("m.gd"), FileAccess.WRITE)'), 3)).toEqual(["res://main.gd:3 error filesystem-outside-sandbox"])
  })

  it("ResourceSaver.save without a path writes to the resource's resource_path: an error; with a user:// path, fine", async () => {
    // core/io/resource_saver.cpp, ResourceSaver::save: `if (path.is_empty()) { path = p_resource->get_path(); }` (104-106).
    const source = script('var r = load("res://main.tscn")', "ResourceSaver.save(r)", 'ResourceSaver.save(r, "user://a.tscn")')
    expect(await scan4(source, 3)).toEqual(["res://main.gd:4 error filesystem-outside-sandbox"])
  })
})

describe("Godot 4.4+: JSON.to_native(data, true) builds objects the data names", () => {
  // core/io/json.cpp, JSON::_to_native: `Object *obj = ClassDB::instantiate(dict[TYPE]);`, then for each property
  // `obj->set_script(script)` or `obj->set(name, value)` (lines 1541-1569 of the fork), only when allow_objects is true.
  it("with true, or a flag that is not constant, is a json-to-native-objects error (j01); without it, fine", async () => {
    const source = script(
      'var data = JSON.parse_string(FileAccess.get_file_as_string("user://save.json"))', // 3
      "var obj = JSON.to_native(data, true)", // 4
      "var flag = data.size() > 0", // 5
      "var o2 = JSON.to_native(data, flag)", // 6
      "var plain = JSON.to_native(data)", // 7
      "var plain2 = JSON.to_native(data, false)", // 8
      "var encoded = JSON.from_native(self, true)", // 9
      'JSON.call("to_native", data, true)', // 10
    )
    expect(await scan4(source, 3)).toEqual(["res://main.gd:4 error json-to-native-objects", "res://main.gd:6 error json-to-native-objects", "res://main.gd:10 error json-to-native-objects"])
  })
})
