// What red teamer 13b got past pckgate-scanner/12 with `.import` files (attackProjects26.ts holds the pack the engine
// ran), and `.po` translations. ResourceFormatImporter::_get_path_and_type takes the FIRST `path`, or `path.<feature>` of a feature the
// running engine has (core/io/resource_importer.cpp:82-91 of 3.5), so an absent target is harmless only where the
// engine never reaches it. Pure checks on `.import` text.
import { describe, expect, it } from "vitest"
import { redirectFindings } from "../../adapters/scanner/checks/redirectCheck.ts"
import { poMessages } from "../../adapters/scanner/resource/poTranslation.ts"
import { lines } from "./fixtures/godotProjects.ts"

const imported = (...targets: ReadonlyArray<readonly [string, string]>): string =>
  lines("[remap]", "", 'importer="texture"', 'type="StreamTexture"', ...targets.map(([key, file]) => `${key}="res://.import/${file}"`))

/** The targets flagged for an `.import` whose pack holds `held` (file names under res://.import/). */
const flagged = (text: string, ...held: ReadonlyArray<string>): ReadonlyArray<string> =>
  redirectFindings("res://art/a.png.import", text, (p) => held.some((f) => p === `res://.import/${f}`), 3).map((f) => /"res:\/\/\.import\/([^"]+)"/.exec(f.message)?.[1] ?? f.message)

describe(".import targets by the engine's first-match rule (red team 13b)", () => {
  it("flags an absent path.<feature> target listed before the path the pack holds (64, pc, X11 hold on every desktop)", () => {
    for (const feature of ["64", "pc", "X11", "s3tc", "etc2", "custom"]) {
      expect(flagged(imported([`path.${feature}`, "a.x.tres"], ["path", "a.stex"]), "a.stex")).toEqual(["a.x.tres"])
    }
  })

  it("flags an absent desktop format before a mobile one the pack holds", () => {
    expect(flagged(imported(["path.s3tc", "a.s3tc.stex"], ["path.etc2", "a.etc2.stex"]), "a.etc2.stex")).toEqual(["a.s3tc.stex"])
  })

  it("passes an absent target after a plain path (never reached) and mobile formats a desktop export dropped after its s3tc", () => {
    expect(flagged(imported(["path", "a.stex"], ["path.64", "a.64.tres"]), "a.stex")).toEqual([])
    expect(flagged(imported(["path.s3tc", "a.s3tc.stex"], ["path.etc2", "a.etc2.stex"], ["path.etc", "a.etc.stex"], ["path.pvrtc", "a.pvrtc.stex"]), "a.s3tc.stex")).toEqual([])
  })

  it("flags a mobile format dropped after a desktop format the pack lacks too, and a non-format feature after s3tc", () => {
    expect(flagged(imported(["path.s3tc", "a.s3tc.stex"], ["path.etc2", "a.etc2.stex"]))).toEqual(["a.s3tc.stex", "a.etc2.stex"])
    expect(flagged(imported(["path.s3tc", "a.s3tc.stex"], ["path.64", "a.64.tres"]), "a.s3tc.stex")).toEqual(["a.64.tres"])
  })
})

describe(".po messages as TranslationLoaderPO reads them (red team 13b)", () => {
  it("joins continued lines, unescapes with c_unescape's order, keeps context and plural messages, skips comments", () => {
    const po = lines(
      'msgid ""',
      'msgstr ""',
      '"Language: de\\n"',
      "",
      "#, fuzzy",
      'msgctxt "menu"',
      'msgid "A"',
      'msgstr "[img]res://a'
        + '.png[/img] "',
      '  "\\"q\\" \\\\n tab\\t"',
      "# [img]user://comment.png[/img]",
      'msgid "B"',
      'msgid_plural "Bs"',
      'msgstr[0] "one [img]user://b.png[/img]"',
      'msgstr[1] "many"',
    )
    expect(poMessages(po)).toEqual([
      { text: "Language: de\n", line: 2 },
      { text: '[img]res://a.png[/img] "q" \\\n tab\t', line: 8 },
      { text: "one [img]user://b.png[/img]", line: 13 },
      { text: "many", line: 14 },
    ])
  })

  // A forty-fourth red team's, run by godot3-server (tr("Hello") gave `x\" [img]user://a.tres[/img] `): 3.2.3 ends a
  // quoted line at the first quote whose previous character is not a backslash, even an escaped backslash.
  it("a quote after an escaped backslash does not end the message", () => {
    const po = lines('msgid "Hello"', 'msgstr "x\\\\" [img]user://a.tres[/img] "')
    expect(poMessages(po)).toEqual([{ text: 'x\\" [img]user://a.tres[/img] ', line: 2 }])
  })

  // A forty-sixth red team's, run by godot3-server: lines are read as File.get_line reads them (every CR dropped) and
  // stripped with String::strip_edges (every character up to a space), not JS trim().
  it("a CR inside a message and control characters around its quotes are read as the engine reads them", () => {
    expect(poMessages(lines('msgid "A"', 'msgstr "[im\rg]user://a.tres[/img]"'))).toEqual([{ text: "[img]user://a.tres[/img]", line: 2 }])
    expect(poMessages(lines('msgid "B"', 'msgstr "[im"', '\u0001"g]user://b.tres[/img]"'))).toEqual([{ text: "[img]user://b.tres[/img]", line: 2 }])
    expect(poMessages(lines('msgid "C"', 'msgstr\u0001"[img]user://c.tres[/img]"'))).toEqual([{ text: "[img]user://c.tres[/img]", line: 2 }])
  })
})
