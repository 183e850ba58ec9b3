import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { judgePath } from "../gdscript/analyzeScript.ts"
import { strs } from "../gdscript/values.ts"
import { extensionOf, normalisePackPath, SCRIPT_EXTENSIONS } from "../pack/packPath.ts"
import { readRedirect, type RedirectTarget, redirectKindOf } from "../resource/redirect.ts"
import type { Grammar } from "../resource/variantText.ts"

// `.remap` and `.import` files redirect a path to another: `ResourceLoader` loads the target
// instead, and picks the loader by the target's extension (core/io/resource_loader.cpp,
// _path_remap; core/io/resource_importer.cpp for `.import`'s `path`/`path.<feature>` keys). They are
// read as the engine reads them (resource/redirect.ts), every target judged.
// A target outside the pack loads unreviewed content; a script target behind a name that is not a
// script hides code where a reviewer expects an asset.

/** Where an export puts imported files (3.x, 4.x): an `.import` lists every format, the pack holds its platform's. */
const IMPORT_FOLDERS = ["res://.import/", "res://.godot/imported/"]

const withoutExtension = (path: string): string => path.slice(0, path.length - extensionOf(path).length)

/** Texture formats the importer lists first (s3tc, which bptc rides with), which a desktop export keeps. */
const DESKTOP_FORMATS: ReadonlySet<string> = new Set(["s3tc", "bptc"])
/** The mobile texture formats the importer lists after them (editor/import/resource_importer_texture.cpp), which it drops. */
const MOBILE_FORMATS: ReadonlySet<string> = new Set(["etc2", "etc", "pvrtc"])

/** The feature a `path.<feature>` key names: the part after its first dot, up to the next (get_slicec('.', 1)). */
const featureOf = (key: string): string => key.split(".")[1] ?? ""

/**
 * Whether the engine never takes an `.import` target, given the targets before it: it takes the FIRST `path`, or
 * `path.<feature>` of a feature it has (ResourceFormatImporter::_get_path_and_type, core/io/resource_importer.cpp:82-91
 * of 3.5, the same in 4.x), and features such as `64`, `pc`, `X11` hold on every desktop. So a target after a plain
 * `path` is never taken, and a mobile format after a desktop one the pack holds is what a desktop export drops; any
 * other target may be the first match on a player's machine.
 */
const neverTaken = (t: RedirectTarget, before: ReadonlyArray<RedirectTarget>, inside: (u: RedirectTarget) => boolean): boolean =>
  t.key !== "path" && before.some((u) => u.key === "path" || (inside(u) && DESKTOP_FORMATS.has(featureOf(u.key)) && MOBILE_FORMATS.has(featureOf(t.key)) && isStreamTexture(t)))

/**
 * A mobile format's target is dropped from desktop exports, but a machine without s3tc (a headless build, a device, a
 * pack setting `_custom_features`) takes it: it is left unjudged only when it is a compressed texture (`.stex`, 4.x `.ctex`), which
 * carries no script (a fifty-third red team's `path.etc2` naming an absent `.tres` read from the disk).
 */
const isStreamTexture = (t: RedirectTarget): boolean => t.path !== null && COMPRESSED_TEXTURES.has(extensionOf(t.path).toLowerCase())

/** The compressed textures the importer writes: 3.x StreamTexture, 4.x CompressedTexture2D. */
const COMPRESSED_TEXTURES: ReadonlySet<string> = new Set([".stex", ".ctex"])

/**
 * `inPack` says whether a res:// path is an entry of the pack: a target that is not is read from the disk
 * (FileAccess falls back to the file system for a res:// path the pack lacks).
 */
/** Files the engine loads as they are, never through an import: scripts, and text and binary scenes and resources. */
const LOADED_DIRECTLY: ReadonlySet<string> = new Set([...SCRIPT_EXTENSIONS, ".tscn", ".tres", ".scn", ".res"])

export const redirectFindings = (stored: string, text: Uint8Array | string, inPack: (path: string) => boolean = () => true, grammar: Grammar = 4): ReadonlyArray<Finding> => {
  const kind = redirectKindOf(stored)
  if (kind === null) return []
  const original = stored.slice(0, stored.length - kind.length)
  const { targets, malformed } = readRedirect(text, kind, grammar)
  const present = (path: string): boolean => inPack(normalisePackPath(path))
  const inside = (t: RedirectTarget): boolean => t.path !== null && judgePath(strs([t.path]), ["res://"], false) === "inside" && present(t.path)
  const findings: Array<Finding> = []
  const flag = (t: RedirectTarget, message: string): void => {
    // The finding names the original path (the redirect's line is in the message), as it did before redirects were parsed.
    findings.push(finding({ rule: RULE.hostilePath, file: original, storedPath: stored, pattern: `${kind} target`, message: `${message} (${stored} line ${t.at.line})` }))
  }
  // A redirect the engine's reader refuses part-way is followed up to there by one engine release and otherwise by
  // another (Godot 3.2 reads `[remap]`'s name byte by byte, 3.5 as UTF-8: an eighty-sixth red team's byte-order mark
  // inside the brackets); no export writes one.
  if (malformed !== null) {
    findings.push(finding({ rule: RULE.hostilePath, file: original, storedPath: stored, pattern: `${kind} target`, message: `${stored} cannot be read as the engine reads a redirect (${malformed}), so which file the engine loads for ${original} depends on its release. Remove ${stored} and export again.` }))
  }
  for (const t of targets) {
    if (t.path === null) {
      flag(t, `${stored} gives ${t.key} a value that is not a string: the engine converts it to a path and loads that, which no export writes. Remove ${stored} and export again.`)
      continue
    }
    const target = t.path
    const outside = judgePath(strs([target]), ["res://"], false) !== "inside"
    const scriptBehindOtherName = SCRIPT_EXTENSIONS.has(extensionOf(target)) && !SCRIPT_EXTENSIONS.has(extensionOf(original))
    // An export redirects a script only to its own compiled form (`player.gd` → `player.gdc`); a script sent to
    // another script (its source, or another's compiled form) is a decoy.
    const scriptToScript = kind === ".remap" && SCRIPT_EXTENSIONS.has(extensionOf(original)) && SCRIPT_EXTENSIONS.has(extensionOf(target)) && (extensionOf(target) === ".gd" || withoutExtension(normalisePackPath(target)) !== withoutExtension(original))
    // No export writes a `.import` beside a script or a scene (the editor imports neither), yet the engine's import
    // loader, registered first, loads the target wherever the original is named (core/io/resource_importer.cpp
    // recognize_path: `p_path + ".import"` exists): a decoy at the original's path (a sixty-seventh red team's).
    const importedDirectLoad = kind === ".import" && LOADED_DIRECTLY.has(extensionOf(original))
    const otherFormat = kind === ".import" && IMPORT_FOLDERS.some((f) => normalisePackPath(target).startsWith(f)) && neverTaken(t, targets.slice(0, targets.indexOf(t)), inside)
    const absent = !outside && !present(target) && !otherFormat
    if (!outside && !scriptBehindOtherName && !scriptToScript && !importedDirectLoad && !absent) continue
    flag(
      t,
      outside
        ? `${stored} redirects ${original} to ${JSON.stringify(target)}, outside the pack: the engine would load content nobody reviewed. Remove ${stored} and export again so the file itself is in the pack.`
        : absent
          ? `${stored} redirects ${original} to ${JSON.stringify(target)}, which is not in the pack: the engine would read it from the disk (next to the game or in the working folder), content nobody reviewed. Remove ${stored} and export again.`
          : importedDirectLoad
            ? `${stored} redirects ${original} to ${JSON.stringify(target)}: the engine's import loader takes every load of ${original} to that file, and no export writes an .import beside a script or a scene (neither is imported). Remove ${stored} and export again.`
          : scriptToScript
            ? `${stored} redirects the script ${original} to another script, ${JSON.stringify(target)}: the engine loads that one wherever ${original} is named (even when ${original} is in the pack), and no export writes such a redirect (it redirects a script only to its own compiled form). Remove ${stored} and export again.`
            : `${stored} redirects ${original} to the script ${JSON.stringify(target)}: loading what looks like ${extensionOf(original) || "an asset"} runs code. Remove ${stored} and load the script by its own .gd path.`,
    )
  }
  return findings
}

/** What the engine reads by its content as code or as a scene or resource, whatever the file's name (resource/sniff.ts kinds). */
const READ_BY_CONTENT: ReadonlySet<string> = new Set(["text-resource", "binary-resource", "tokenized-script", "encrypted-file"])

/**
 * An `.import` beside an entry the engine (and the scanner) reads by its content as a scene, a resource or a script,
 * under a name LOADED_DIRECTLY does not list (`towers.material`, `towers.xyz`): the import loader takes the load of
 * that name to its target, so what the scanner read at the name is a decoy (a sixty-eighth red team's autoload scene
 * whose table the held-table rule followed). No export writes one: the editor imports assets, never a file it saved.
 */
export const importBesideContentFinding = (original: string, sniffed: string): Finding | null => {
  if (!READ_BY_CONTENT.has(sniffed) || LOADED_DIRECTLY.has(extensionOf(original))) return null
  const stored = `${original}.import`
  return finding({
    rule: RULE.hostilePath,
    file: original,
    storedPath: stored,
    pattern: ".import target",
    message: `${stored} redirects ${original}, which holds a scene, a resource or a script: the engine's import loader takes every load of ${original} to the .import's target instead, and no export writes an .import beside a file that is not an imported asset. Remove ${stored} and export again.`,
  })
}
