// JSON's structural bytes, for the scans that read JSON text as bytes before (or instead of) JSON.parse: every
// structural character is ASCII and every byte of a multi-byte UTF-8 sequence is >= 0x80, so bytes compare exactly.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** JSON's white space: space, tab, line feed, carriage return. */
export const isJsonSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
