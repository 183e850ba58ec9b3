import type { RuleId } from "../../../domain/scan/RuleId.ts"

// What each scanner rule means and how to fix it, in a sentence, for the submit, creator and review pages
// (the long form is docs/scanner.md, whose anchors are the rule ids).

export const RULE_HELP: { readonly [Rule in RuleId]: string } = {
  "pack-not-godot": "The file is not a Godot pack. Upload the .pck written by Godot's --export-pack.",
  "pack-truncated": "The pack ends too early (a damaged upload or an unfinished file). Export it again.",
  "pack-unsupported-format": "The pack format is not one the review covers. Export with Godot 3.x or 4.x.",
  "pack-unknown-flags": "The pack uses flags no Godot version writes. Export with a stock editor.",
  "pack-embedded-in-executable": "The pack sits inside an executable, which is native code. Upload the standalone .pck.",
  "pack-directory-too-large": "The pack lists more than 200 000 files. Split the content or contact the operator.",
  "pack-hostile-path": "A file path could escape the game folder or is ambiguous. Remove the file and export again.",
  "pack-duplicate-path": "The same path appears twice, so which copy loads is unclear. Export again.",
  "pack-entry-out-of-bounds": "A file's bytes run past the end of the pack (truncated or forged). Export again.",
  "pack-entry-overlaps-directory": "A file's bytes overlap the pack's directory (forged). Export again.",
  "pack-encrypted": "Encrypted content cannot be reviewed. Export with encrypt_pck=false and encrypt_directory=false.",
  "pack-patch-content": "Patch packs change other packs; they are not complete games. Upload a complete --export-pack export.",
  "pack-checksum-mismatch": "A file changed after export or is damaged. Export again.",
  "pack-size": "The pack is outside the size limits. Reduce it, or onboard large packages with the operator.",
  "resource-unreadable": "A script, scene or resource could not be read, and unread content could hide code. Export again with a stock editor.",
  "manifest-missing": "There is no readable res://manifest.json. Put it next to project.godot and list it in include_filter.",
  "manifest-invalid-json": "manifest.json is not valid JSON. Fix the JSON and export again.",
  "manifest-invalid-field": "A manifest field is missing or invalid. Fix the field named in the message.",
  "manifest-not-current": "The manifest inside the pack differs from the one submitted. Export again after changing the manifest and submit the same file.",
  "entry-scene-missing": "entry_scene is not in the pack. Fix entry_scene or include the scene.",
  "entry-scene-not-engine-game": "The entry scene's root script does not extend EngineGame. Make it extend EngineGame, directly or through your own base classes.",
  "entry-scene-unverifiable": "The entry scene's script is compiled, so it cannot be checked. Export with script_export_mode=0.",
  "reserved-path": "Infrastructure folders (sdk/, core/, server/, client/) must not be shipped. Add them to exclude_filter.",
  "banned-api": "The code uses an API games may not use on this platform (even inside a branch that never runs). Remove the call.",
  "native-code": "Native libraries and executables are not allowed. Remove the native plugin from the export.",
  "non-gdscript": "Only GDScript is accepted (no C#, VisualScript or other languages). Port the script to GDScript.",
  "compiled-script": "Compiled scripts cannot be reviewed. In the \"Summer Game PCK\" preset set script_export_mode=0.",
}

/** The explanation of a rule id, or a pointer to the docs for ids this build does not know. */
export const ruleHelp = (rule: string): string =>
  Object.hasOwn(RULE_HELP, rule) ? RULE_HELP[rule as RuleId] : "See the scanner documentation for this rule."
