// A made-up service account for tests: a fresh RSA key in Google's key-file format, written where
// GOOGLE_APPLICATION_CREDENTIALS can point at it. It is valid only for the GCS test double (which trusts its public key).
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface FakeServiceAccount {
  readonly clientEmail: string
  readonly keyFile: string
  readonly privateKeyPem: string
  readonly publicKeyPem: string
}

export const makeFakeServiceAccount = (name = "pckgate-test"): FakeServiceAccount => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString()
  const clientEmail = `${name}@pckgate-test-project.iam.gserviceaccount.com`
  const keyFile = join(mkdtempSync(join(tmpdir(), "fake-sa-")), "service-account.json")
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: "service_account",
      project_id: "pckgate-test-project",
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privateKeyPem,
      client_email: clientEmail,
      client_id: "100000000000000000000",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: "https://oauth2.googleapis.com/token",
    }),
    { mode: 0o600 },
  )
  return { clientEmail, keyFile, privateKeyPem, publicKeyPem }
}
