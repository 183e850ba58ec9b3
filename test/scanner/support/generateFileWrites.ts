// Regenerates adapters/scanner/gdscript/engine-file-writes.json: every engine method that writes or
// creates a file or folder at a path it is given, with the argument positions of the paths, for Godot 3
// and 4, from the class reference (doc/classes/*.xml and modules/*/doc_classes/*.xml of a checkout):
//
//   node test/scanner/support/generateFileWrites.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
//
// A method counts when its name says it writes (save…, dump_…_to_file, pck_start, write_to_filesystem,
// export_gltf; on Directory/DirAccess also make_dir…, copy…, rename…, remove…, create_link; ZIPPacker's
// open) and a String parameter names a path (path, file, to, from, source, pck_name, pck_path,
// target, filename; not the source of a copy); whatever its name, a method with a String parameter named
// `…save_path` saves there (3.x BakedLightmap.bake(from_node, data_save_path): ResourceSaver::save of the
// baked data, scene/3d/baked_lightmap.cpp), and setters of a folder the engine writes into later count
// (FOLDER_PROPERTIES: their setters, path at 0). With them, the built-in Variant types' methods of those
// names (`variantNamesakes`: 3.x Array.remove(index)). Writes whose place is in no argument are marked `implicit`: 4.4+
// FileAccess/DirAccess.create_temp (`temp`: the operating system's temporary folder, core/io/file_access.cpp) and a
// write whose path parameters are optional and whose description says the resource's resource_path is used
// instead (`resource`: 4.x ResourceSaver.save). File/FileAccess.open and friends write only in a write mode: the policy's path
// pattern judges them with their mode. The Godot 4 fork of docs/scanner.md#dispatch-table keeps the
// engine's class names for these classes.
import { readFileSync, writeFileSync } from "node:fs"
import { classOfFile, classReferenceFiles } from "./classReference.ts"

export interface FileWrite {
  readonly class: string
  readonly method: string
  readonly paths: ReadonlyArray<number>
  /** Where it writes with no path argument: `temp` (create_temp), `resource` (the resource's resource_path). */
  readonly implicit?: string
}

const WRITES = /^(save(_\w+)?|set_(unix_permissions|hidden_attribute|read_only_attribute)|dump_\w+_to_file|print_all_resources|pck_start|write_to_filesystem|export_gltf)$/
const DIRECTORY_WRITES = /^(make_dir(_recursive)?(_absolute)?|copy(_absolute)?|rename(_absolute)?|remove(_absolute)?|create_link)$/
const DIRECTORY_CLASSES: ReadonlySet<string> = new Set(["Directory", "DirAccess"])
const PATH_PARAMS: ReadonlySet<string> = new Set(["path", "file", "to", "from", "source", "pck_name", "pck_path", "target", "filename", "tofile"])
const SKIPPED_CLASS = /^(Editor|VisualScript|VisualShader|ScriptEditor|ResourceFormat)/
/** Methods that create a file or folder in the operating system's temporary folder, whatever their arguments (4.4+ FileAccess and DirAccess). */
const TEMP_CREATES = /^create_temp$/
/** A description saying that a path left out is the resource's own (4.x ResourceSaver.save(resource, path = "")). */
const RESOURCE_PATH = /\[member Resource\.resource_path\]/
/** A parameter that names where the method saves, whatever the method is called. */
const SAVE_PATH_PARAM = /(^|_)save_path$/
/**
 * Properties naming a folder the engine later writes into: 3.x BakedLightmap.image_path, where bake() saves its
 * data (`BakedLightmap.lmbake`) and textures when it is given no data_save_path and its light data has no file.
 */
const FOLDER_PROPERTIES: ReadonlySet<string> = new Set(["BakedLightmap.image_path"])

/** A method of a built-in Variant type (Array, the Pool/Packed arrays, String, …) named like a file write, with the argument counts and types it takes. */
export interface VariantNamesake {
  readonly class: string
  readonly method: string
  readonly minArgs: number
  readonly types: ReadonlyArray<string>
}

/**
 * The built-in Variant types' methods named like one of `writes` (the reference's classes without a base,
 * Object and `@` scopes aside): a call of that name on a value the analysis cannot type may be one of them
 * (3.x Array.remove(index)).
 */
const variantNamesakesOf = (root: string, writes: ReadonlyArray<FileWrite>): ReadonlyArray<VariantNamesake> => {
  const names = new Set(writes.map((w) => w.method))
  const out: Array<VariantNamesake> = []
  for (const file of classReferenceFiles(root)) {
    const cls = classOfFile(file)
    const xml = readFileSync(file, "utf8")
    const header = /<class\s[^>]*>/.exec(xml)?.[0] ?? ""
    if (/\binherits="/.test(header) || cls === "Object" || cls.startsWith("@")) continue
    for (const m of xml.matchAll(/<method\s[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/method>/g)) {
      const method = m[1] ?? ""
      if (!names.has(method)) continue
      const params = [...(m[2] ?? "").matchAll(/<(?:param|argument)\s[^>]*>/g)].map((p) => p[0])
      out.push({ class: cls, method, minArgs: params.filter((p) => !/\bdefault="/.test(p)).length, types: params.map((p) => /\btype="([^"]*)"/.exec(p)?.[1] ?? "Variant") })
    }
  }
  return out
}

const writesOf = (root: string): ReadonlyArray<FileWrite> => {
  const out: Array<FileWrite> = []
  for (const file of classReferenceFiles(root)) {
    const cls = classOfFile(file)
    if (SKIPPED_CLASS.test(cls)) continue
    const xml = readFileSync(file, "utf8")
    for (const m of xml.matchAll(/<method\s[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/method>/g)) {
      const method = m[1] ?? ""
      const params = [...(m[2] ?? "").matchAll(/<(?:param|argument)\s[^>]*>/g)].map((p) => ({
        name: /\bname="([^"]*)"/.exec(p[0])?.[1] ?? "",
        type: /\btype="([^"]*)"/.exec(p[0])?.[1] ?? "",
        index: Number(/\bindex="(\d+)"/.exec(p[0])?.[1]),
        optional: /\bdefault="/.test(p[0]),
      }))
      const named = WRITES.test(method) || (DIRECTORY_CLASSES.has(cls) && DIRECTORY_WRITES.test(method)) || (cls === "ZIPPacker" && method === "open")
      // A copy reads its source: only where it writes counts.
      const pathParams = params.filter((p) => p.type === "String" && (SAVE_PATH_PARAM.test(p.name) || (named && PATH_PARAMS.has(p.name) && !(p.name === "from" && method.startsWith("copy")))))
      const paths = pathParams.map((p) => p.index).sort((a, b) => a - b)
      const description = /<description>([\s\S]*?)<\/description>/.exec(m[2] ?? "")?.[1] ?? ""
      if (TEMP_CREATES.test(method)) out.push({ class: cls, method, paths: [], implicit: "temp" })
      else if (paths.length > 0 && pathParams.every((p) => p.optional) && RESOURCE_PATH.test(description)) out.push({ class: cls, method, paths, implicit: "resource" })
      else if (paths.length > 0) out.push({ class: cls, method, paths })
    }
    for (const m of xml.matchAll(/<member\s[^>]*name="([^"]+)"[^>]*>/g)) {
      const setter = /\bsetter="([^"]+)"/.exec(m[0])?.[1]
      if (setter !== undefined && FOLDER_PROPERTIES.has(`${cls}.${m[1] ?? ""}`)) out.push({ class: cls, method: setter, paths: [0] })
    }
  }
  return out
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-file-writes.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateFileWrites.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
const writes3 = writesOf(godot3)
const writes4 = writesOf(godot4)
const variants = { 3: variantNamesakesOf(godot3, writes3), 4: variantNamesakesOf(godot4, writes4) }
writeFileSync(out, `${JSON.stringify({ 3: writes3, 4: writes4, variantNamesakes: variants }, null, 1)}\n`)
