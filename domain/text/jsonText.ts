/**
 * Parses the text of a JSON file as editors save it: a leading UTF-8 byte order mark is not part of the document.
 * Throws a SyntaxError, like JSON.parse, when the rest is not JSON.
 */
export const parseJsonText = (text: string): unknown => JSON.parse(text.replace(/^\ufeff/, ""))
