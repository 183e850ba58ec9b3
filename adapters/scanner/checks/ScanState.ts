import type { EmbeddedIn, Finding, Severity } from "../../../domain/scan/Finding.ts"
import type { ScriptHeader } from "../gdscript/scriptHeader.ts"
import type { ScriptReference } from "../resource/SceneFacts.ts"

/** A script whose source was read, and where its lines are, for the entry-scene check's findings. */
export interface KnownScript {
  readonly header: ScriptHeader
  readonly file: string
  readonly storedPath?: string
  readonly embeddedIn?: EmbeddedIn
  readonly mapPosition?: (line: number, column: number) => { readonly line: number; readonly column: number }
}

export interface KnownScene {
  readonly rootScript: ScriptReference | null
  /** The root sets its script itself (SceneFacts.rootScriptSet). */
  readonly rootScriptSet: boolean
  readonly baseScene: string | null
}

/** One place of the capability summary. */
export interface CapabilityRecord {
  readonly capability: string
  readonly file: string
  readonly line: number | null
  readonly column: number | null
  readonly api: string
  readonly verdict: Severity | "allowed"
  readonly embeddedIn?: EmbeddedIn
}

/** What the content pass learns that later checks need, and its findings. */
export class ScanState {
  readonly findings: Array<Finding> = []
  /** By creator path (`res://player.gd`) or, for built-in scripts, `scene::subResource`. */
  readonly scripts = new Map<string, KnownScript>()
  /** `class_name` → key in `scripts`. */
  readonly classNames = new Map<string, string>()
  /** By creator path of the scene; null when the scene could not be read. */
  readonly scenes = new Map<string, KnownScene | null>()
  readonly capabilities: Array<CapabilityRecord> = []

  addScript(key: string, script: KnownScript): void {
    this.scripts.set(key, script)
    const name = script.header.className
    if (name !== null && !this.classNames.has(name)) this.classNames.set(name, key)
  }
}

export const builtInScriptKey = (scene: string, subResource: string): string => `${scene}::${subResource}`
