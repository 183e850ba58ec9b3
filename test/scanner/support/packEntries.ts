// Opens a pack file and gives tests its directory and entries, through the scanner's own reader.
import { withFileByteSource } from "../../../adapters/scanner/fileByteSource.ts"
import { CountingSource } from "../../../adapters/scanner/io/CountingSource.ts"
import { nodeDecompressors } from "../../../adapters/scanner/nodeDecompressors.ts"
import { PackContents } from "../../../adapters/scanner/PackContents.ts"
import { openPack } from "../../../adapters/scanner/pack/openPack.ts"
import { openBinaryResource } from "../../../adapters/scanner/resource/binaryResource.ts"
import { readBinaryScripts } from "../../../adapters/scanner/resource/binaryScripts.ts"
import { TextResourceReader } from "../../../adapters/scanner/resource/textResource.ts"

export const withPackContents = <A>(path: string, use: (contents: PackContents) => Promise<A>): Promise<A> =>
  withFileByteSource(path, async (source) => {
    const counting = new CountingSource(source)
    const opened = await openPack(counting)
    if (opened._tag !== "Readable") throw new Error(`${path} is not a readable pack (${opened._tag})`)
    return use(await PackContents.load(counting, opened.entries, opened.header.format <= 1 ? 3 : 4))
  })

export interface ExtractedScript {
  readonly subResource: string
  readonly source: string
}

/** Built-in scripts of one stored scene, text (.tscn/.tres) or binary (RSRC/RSCC). */
export const builtInScripts = async (contents: PackContents, storedPath: string): Promise<ReadonlyArray<ExtractedScript>> => {
  const entry = contents.get(storedPath)
  if (entry === undefined) throw new Error(`${storedPath} is not in the pack`)
  if (storedPath.endsWith(".tscn") || storedPath.endsWith(".tres")) {
    const reader = new TextResourceReader()
    reader.feed(new TextDecoder().decode(await contents.bytesOf(entry)))
    return reader.finish().scripts
  }
  return (await readBinaryScripts(await openBinaryResource(contents.accessOf(entry), nodeDecompressors))).scripts
}
