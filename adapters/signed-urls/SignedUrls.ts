import { Context, Effect, Layer } from "effect"
import { makeUrlSigner, type UrlSigner } from "./UrlSigner.ts"

/** The signer shared by a self-served store (which presigns) and the HTTP routes (which verify). */
export class SignedUrls extends Context.Service<SignedUrls, UrlSigner>()("pckgate/adapters/signed-urls/SignedUrls") {
  static layer(secret: Uint8Array<ArrayBuffer>, baseUrl: () => string) {
    return Layer.effect(SignedUrls, Effect.promise(() => makeUrlSigner(secret, baseUrl)))
  }
}
