// The class reference of an engine checkout: doc/classes/*.xml and modules/*/doc_classes/*.xml, for the
// generators of the committed engine tables (dispatch, classes, file writes).
import { readdirSync, statSync } from "node:fs"
import { join, relative } from "node:path"

/** Every class-reference XML file below `root`, sorted. */
export const classReferenceFiles = (root: string): Array<string> => {
  const out: Array<string> = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === ".git" || name === "thirdparty") continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith(".xml") && /(^|\/)(doc\/classes|doc_classes)\//.test(relative(root, path))) out.push(path)
    }
  }
  walk(root)
  return out.sort()
}

/** The class a reference file documents (its file name). */
export const classOfFile = (file: string): string => file.slice(file.lastIndexOf("/") + 1, -".xml".length)
