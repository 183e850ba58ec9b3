// Log lines written in batches: one write per turn of the event loop instead of one blocking write per line
// (stdout to a pipe or file is synchronous on Linux). `flush` writes what is pending, e.g. before exiting.

export const batchedLines = (write: (chunk: string) => void, maxPendingBytes = 64 * 1024) => {
  let pending: Array<string> = []
  let pendingBytes = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const chunk = pending.join("")
    pending = []
    pendingBytes = 0
    write(chunk)
  }
  return {
    line(text: string) {
      pending.push(`${text}\n`)
      pendingBytes += text.length + 1
      if (pendingBytes >= maxPendingBytes) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}
