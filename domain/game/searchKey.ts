/**
 * The form names and queries are compared in by the catalog's prefix search: NFC, then lowercased (locale-independent),
 * then NFC again (lowercasing can leave a sequence that composes). Stored beside the name when a game is written.
 */
export const searchKey = (text: string): string => text.normalize("NFC").toLowerCase().normalize("NFC")
