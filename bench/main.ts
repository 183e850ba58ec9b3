// `npm run bench`: every benchmark, each figure printed as a ratio against a baseline measured in the same run.
const suites: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  release: () => import("./release.ts"),
  multipart: () => import("./multipart.ts"),
  sql: () => import("./sql.ts"),
  scanner: () => import("./scanner.ts"),
  slow: () => import("./slowClients.ts"),
  reading: () => import("./reviewReading.ts"),
}

const only = process.argv.slice(2)
for (const [name, load] of Object.entries(suites)) {
  if (only.length > 0 && !only.includes(name)) continue
  console.log(`\n## ${name}`)
  await (await load()).run()
}
