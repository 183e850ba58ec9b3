// The embedded object store (`pckgate/storage-local`): files under a directory, write-once keys, presigned URLs
// served by the HTTP app's /storage/ route. It needs `SignedUrls` (same secret on every instance).
export { layerLocalDiskStorage, type LocalDiskOptions, makeLocalDiskStorage } from "./LocalDiskStorage.ts"
export { SignedUrls } from "../signed-urls/SignedUrls.ts"
export { makeUrlSigner, PUT_HEADERS, type UrlSigner } from "../signed-urls/UrlSigner.ts"
