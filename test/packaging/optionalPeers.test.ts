// mysql2 and @google-cloud/storage are optional peers: a server configured for one that is not installed says which
// package to install, in one line, and exits 2. The test hides the package from the server's module resolution.
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, test } from "vitest"
import { loadOptional, OptionalPackageMissing } from "../../adapters/system/optionalPackage.ts"
import { REPO_ROOT, SERVER_ENV } from "../support/server.ts"

/** A resolve hook that answers "not found" for one package, as if it were not installed. */
const hiding = (name: string) =>
  `data:text/javascript,${encodeURIComponent(`
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(name)} || specifier.startsWith(${JSON.stringify(`${name}/`)})) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}\`));`)}`

const startWithout = (name: string, env: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", hiding(name), "apps/server/main.ts"], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...SERVER_ENV, PORT: "0", DATA_DIR: mkdtempSync(join(tmpdir(), "pckgate-peer-")), ...env },
      stdio: ["ignore", "ignore", "pipe"],
    })
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })

test("a server configured for MySQL without mysql2, or GCS without its library, names the package and exits 2", async () => {
  const mysql = await startWithout("mysql2", { DATABASE_URL: "mysql://u:p@127.0.0.1:1/db" })
  expect(mysql.code).toBe(2)
  expect(mysql.stderr.trim()).toBe(
    "cannot start: A MySQL or MariaDB database (DATABASE_URL) needs the package 'mysql2', which is not installed: run `npm install mysql2` next to pckgate",
  )
  const gcs = await startWithout("@google-cloud/storage", { STORAGE: "gcs", GCS_BUCKET: "b" })
  expect(gcs.code).toBe(2)
  expect(gcs.stderr.trim()).toBe(
    "cannot start: STORAGE=gcs needs the package '@google-cloud/storage', which is not installed: run `npm install @google-cloud/storage` next to pckgate",
  )
})

test("loadOptional passes other failures through unchanged", async () => {
  await expect(loadOptional("pckgate-absent", "X", () => import("pckgate-absent" as string))).rejects.toBeInstanceOf(OptionalPackageMissing)
  const other = new Error("boom")
  await expect(loadOptional("mysql2", "X", () => Promise.reject(other))).rejects.toBe(other)
})
