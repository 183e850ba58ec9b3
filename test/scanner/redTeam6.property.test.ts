// Property-based, for what a sixth red team got past pckgate-scanner/8 in GDScript (attackProjects9.ts holds the
// packs the engine ran): a copy of a script that loses its class on the way, then gets text written by a name
// that is not constant; dangerous singletons handed back by connection lists; loops over constant property names.
// Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn, ids } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => ids(found.filter((h) => h.split(" ")[1] === "error"))

/** A script whose `key()` builds a name at run time and whose `_ready` runs `body`; `members` after it. */
const script = (body: ReadonlyArray<string>, members: ReadonlyArray<string> = []): string =>
  ["extends Node", "var keep", "var h", "func key():", '\treturn "edoc_ecruos".substr(0, randi() % 11)', "func _ready():", ...body.map((l) => `\t${l}`), ...members, ""].join("\n")

const COPY = 'load("res://blank.gd").duplicate()'

/** Ways to lose a script copy: lines that end with the copy in local `s` (or a function taking it as `s`, in `members`). */
const CHANNELS: Readonly<Record<string, { readonly body: ReadonlyArray<string>; readonly members?: ReadonlyArray<string>; readonly inMember?: true }>> = {
  weakref: { body: [`keep = ${COPY}`, "var s = weakref(keep).get_ref()"] },
  meta: { body: [`set_meta("s", ${COPY})`, 'var s = get_meta("s")'] },
  append: { body: ["var a = []", `a.append(${COPY})`, "var s = a[0]"] },
  pop: { body: ["var a = []", `a.push_back(${COPY})`, "var s = a.pop_back()"] },
  dict: { body: ["var d = {}", `d["a"] = ${COPY}`, 'var s = d["a"]'] },
  member: { body: ['h = preload("res://box.gd").new()', `h.item = ${COPY}`, "var s = h.item"] },
  yield: { body: [`keep = ${COPY}`, 'var s = yield(self, "got")'] },
  interactive: { body: ['var s = ResourceLoader.load_interactive("res://blank.gd").get_resource()'] },
  signal: { body: [`emit_signal("got", ${COPY})`], members: ["signal got(s)", "func _on_got(s):"], inMember: true },
}

/** Writes of text by a name that is not constant, on `s`. */
const WRITES: ReadonlyArray<string> = ['s.set(key(), "x")', 's[key()] = "x"', 's.call("set", key(), "x")', 's.set_deferred(key(), "x")', 's.callv("set", [key(), "x"])']

describe("a script copy that loses its class on the way (property)", () => {
  it("a write of text by a name that is not constant on it is script-source-code, whatever the channel and write shape", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CHANNELS)), fc.constantFrom(...WRITES), fc.constantFrom(3 as const, 4 as const), (channel, write, grammar) => {
        const c = CHANNELS[channel] ?? { body: [] }
        const source = c.inMember === true ? script(c.body, [...(c.members ?? []), `\t${write}`, "\ts.reload()"]) : script([...c.body, write, "s.reload()"], c.members)
        expect(errors(hitsIn(source, { "res://blank.gd": "extends Reference\n", "res://box.gd": "extends Reference\nvar item\n" }, grammar))).toContain("script-source-code")
      }),
      { numRuns: 120 },
    )
  })

  it("in a helper of another script, reached by funcref or a direct call, the write on its parameter is script-source-code", () => {
    fc.assert(
      fc.property(fc.constantFrom(...WRITES), fc.constantFrom(3 as const, 4 as const), (write, grammar) => {
        const helper = ["extends Reference", "func put(s):", `\t${write}`, "\ts.reload()", ""].join("\n")
        expect(errors(hitsIn(helper, {}, grammar))).toContain("script-source-code")
      }),
      { numRuns: 40 },
    )
  })

  it("on receivers that are provably no script (self, nodes, a scene's instance, typed, plain data) the same writes stay clean", () => {
    const RECEIVERS: ReadonlyArray<readonly [string, string]> = [
      ["var s = self", ""],
      ['var s = get_node("Sprite")', ""],
      ["var s = $Sprite", ""],
      ['var s = preload("res://thing.tscn").instance()', ""],
      ["var s: Node2D = make()", "func make():\n\treturn Node2D.new()"],
      ["var s = {}", ""],
      ['var s = parse_json("{}")', ""],
      ["var s = [1, 2]", ""],
    ]
    fc.assert(
      fc.property(fc.constantFrom(...RECEIVERS), fc.constantFrom(...WRITES), fc.constantFrom("v", '"text"', "data[k]"), (receiver, write, value) => {
        const [decl, extra] = receiver
        const body = [decl, 'var data = parse_json("{}")', "for k in data:", `\t${write.replace('"x"', value)}`]
        const source = ["extends Node2D", "func restore(v):", ...body.map((l) => `\t${l}`), extra, ""].join("\n")
        expect(errors(hitsIn(source, {}, 3))).not.toContain("script-source-code")
      }),
      { numRuns: 120 },
    )
  })
})

describe("dangerous singletons handed back by connection lists (property)", () => {
  it("connecting one is an escape where it is connected, and what the lists give is judged as any dangerous object", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("OS", "ClassDB", "ResourceLoader", "ProjectSettings"),
        fc.constantFrom('get_incoming_connections()[0]["source"]', "get_incoming_connections()[0].source", 'X.get_signal_connection_list("script_changed")[0].source', "X.get_signal_connection_list(\"script_changed\").front().source"),
        fc.boolean(),
        (singleton, take, decoy) => {
          const source = ["extends Node", "func _ready():", `\t${singleton}.connect("script_changed", self, "_noop")`, `\tvar o = ${take.replace("X.", `${singleton}.`)}`, '\to.execute("touch", ["m"])', "func _noop():", "\tpass", ""].join("\n")
          const others = decoy ? { "res://cmd.gd": "extends Reference\nfunc execute(_a, _b):\n\tpass\n" } : {}
          const found = errors(hitsIn(source, others, 3))
          expect(found).toContain("dangerous-object-escape")
          expect(found).toContain("os-process")
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe("loops over constant property names (property)", () => {
  const NAME = fc.stringMatching(/^[a-z][a-z_]{0,11}$/).filter((n) => n !== "script" && !n.startsWith("source") && !n.includes("decoding") && n !== "_bundled")
  const USES: ReadonlyArray<string> = [
    "tween.interpolate_property(node, p, node.get(p), 1.0, 0.3)",
    "tween.follow_property(node, p, 0.0, node, p, 0.3)",
    "node.set(p, Vector2.ONE)",
    "node.set_indexed(p, \"x\")",
    "animate(node, p)",
  ]
  const loop = (names: ReadonlyArray<string>, use: string, asConst: boolean): string =>
    [
      "extends Node",
      "var tween = Tween.new()",
      ...(asConst ? [`const PROPS = [${names.map((n) => JSON.stringify(n)).join(", ")}]`] : []),
      "func pop_in(node):",
      `\tfor p in ${asConst ? "PROPS" : `[${names.map((n) => JSON.stringify(n)).join(", ")}]`}:`,
      `\t\t${use}`,
      // The helper only where the loop calls it: a function nothing in the pack calls takes any argument.
      ...(use.startsWith("animate") ? ["func animate(obj, prop):", "\ttween.interpolate_property(obj, prop, obj.get(prop), 1.0, 0.3)"] : []),
      "",
    ].join("\n")

  it("gives its strings: ordinary property names stay clean in tweens, setters and helpers", () => {
    fc.assert(
      fc.property(fc.array(NAME, { minLength: 1, maxLength: 4 }), fc.constantFrom(...USES), fc.boolean(), (names, use, asConst) => {
        expect(errors(hitsIn(loop(names, use, asConst), {}, 3))).toEqual([])
      }),
      { numRuns: 120 },
    )
  })

  it("a source path among them is still script-source-code, and a constant array the pack appends to is not taken as constant", () => {
    fc.assert(
      fc.property(fc.array(NAME, { minLength: 1, maxLength: 3 }), fc.constantFrom(...USES.filter((u) => !u.startsWith("node.set("))), (names, use) => {
        expect(errors(hitsIn(loop([...names, "script:source_code"], use, false), {}, 3))).toContain("script-source-code")
        const appended = loop(names, use, true).replace("func pop_in(node):", "func pop_in(node):\n\tPROPS.append(str(randi()))")
        expect(errors(hitsIn(appended, {}, 3))).toContain("script-source-code")
      }),
      { numRuns: 60 },
    )
  })
})
