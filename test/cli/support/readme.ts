// The README text that tests run or compare with the code.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { REPO_ROOT } from "../../support/server.ts"

/** Where each tested section lives: the README a newcomer reads. */
export const README_SOURCES = {
  walkthrough: join(REPO_ROOT, "README.md"),
  commandLine: join(REPO_ROOT, "README.md"),
} as const

/** The text under `heading` (a whole line such as "## The command line") up to the next heading of its level or above. */
export const section = (markdown: string, heading: string): string => {
  const lines = markdown.split("\n")
  const start = lines.indexOf(heading)
  if (start === -1) throw new Error(`no '${heading}' heading`)
  const level = heading.indexOf(" ")
  let fenced = false
  let end = lines.length
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith("```")) fenced = !fenced
    // Shell comments in a code block are not headings.
    else if (!fenced && /^#+ /.test(line) && line.indexOf(" ") <= level) {
      end = i
      break
    }
  }
  return lines.slice(start + 1, end).join("\n")
}

/** The first ```sh block of `text`, without its fences. */
export const firstShellBlock = (text: string): string => {
  const match = /^```sh\n([\s\S]*?)^```$/m.exec(text)
  if (match === null) throw new Error("no ```sh block")
  return match[1]!
}

export const readSection = (source: keyof typeof README_SOURCES, heading: string): string => section(readFileSync(README_SOURCES[source], "utf8"), heading)
