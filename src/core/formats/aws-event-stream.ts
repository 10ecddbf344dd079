// The AWS event-stream encoding (`application/vnd.amazon.eventstream`): how Bedrock's InvokeModelWithResponseStream
// (and ConverseStream) send a streamed answer. A capture that keeps the bytes (a vcrpy `!!binary` body, a nock hex
// response, a HAR's base64 content) holds a run of binary messages, each:
//   total length (u32 BE) · headers length (u32 BE) · prelude CRC32 · headers · payload · message CRC32
// with headers `name-length (u8) · name · type (u8) · value` (type 7, a string: u16 BE length · UTF-8 bytes).
// InvokeModel's `chunk` events carry `{"bytes": "<base64 of the model's own event JSON>"}` — for Claude the Messages
// API's stream events, usage included. Spec: https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html
// (the same framing) and the Bedrock runtime's InvokeModelWithResponseStream reference.

const PRELUDE = 12;

let crcTable: Uint32Array | null = null;

function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface EventMessage {
  headers: Map<string, string>;
  payload: Uint8Array;
}

/** The messages of an event stream, or null when the bytes are not one (wrong lengths or a prelude CRC mismatch). */
function eventMessages(bytes: Uint8Array): EventMessage[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const messages: EventMessage[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < PRELUDE + 4) return null;
    const total = view.getUint32(at);
    const headersLength = view.getUint32(at + 4);
    if (total < PRELUDE + 4 + headersLength || at + total > bytes.length) return null;
    if (crc32(bytes, at, at + 8) !== view.getUint32(at + 8)) return null;
    const headers = eventHeaders(bytes, view, at + PRELUDE, at + PRELUDE + headersLength);
    if (headers === null) return null;
    messages.push({ headers, payload: bytes.subarray(at + PRELUDE + headersLength, at + total - 4) });
    at += total;
  }
  return messages.length > 0 ? messages : null;
}

/** String headers by name (other value types are stepped over); null when the header block is malformed. */
function eventHeaders(bytes: Uint8Array, view: DataView, start: number, end: number): Map<string, string> | null {
  const headers = new Map<string, string>();
  const text = new TextDecoder('utf-8');
  // Fixed value sizes by type: 0 true, 1 false, 2 byte, 3 short, 4 int, 5 long, 8 timestamp, 9 uuid.
  const fixed: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };
  let at = start;
  while (at < end) {
    const nameLength = bytes[at]!;
    if (at + 1 + nameLength + 1 > end) return null;
    const name = text.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const type = bytes[at]!;
    at += 1;
    if (type === 6 || type === 7) {
      if (at + 2 > end) return null;
      const length = view.getUint16(at);
      if (at + 2 + length > end) return null;
      if (type === 7) headers.set(name, text.decode(bytes.subarray(at + 2, at + 2 + length)));
      at += 2 + length;
    } else if (type in fixed) {
      at += fixed[type]!;
    } else {
      return null;
    }
  }
  return at === end ? headers : null;
}

/** The JSON value base64 text holds, or undefined when it is not base64 of UTF-8 JSON. */
function base64Json(b64: string): unknown {
  try {
    const binary = atob(b64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * An event stream's events as server-sent-event text (`data: {json}` per event), the form the stream readers take:
 * a `chunk`'s base64 `bytes` is unwrapped to the model's event; an exception message keeps its payload under
 * `{"type": "error", "error": …}`. Null when the bytes are not an event stream.
 */
export function awsEventStreamText(bytes: Uint8Array): string | null {
  const messages = eventMessages(bytes);
  if (messages === null) return null;
  const decoder = new TextDecoder('utf-8');
  const lines: string[] = [];
  for (const message of messages) {
    const payload = decoder.decode(message.payload);
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      continue;
    }
    if (message.headers.get(':message-type') === 'exception') {
      lines.push(`data: ${JSON.stringify({ type: 'error', error: { type: message.headers.get(':exception-type') ?? 'exception', ...(typeof value === 'object' && value !== null ? value : { message: value }) } })}`);
      continue;
    }
    const wrapped = typeof value === 'object' && value !== null ? (value as { bytes?: unknown }).bytes : undefined;
    if (typeof wrapped === 'string') {
      const inner = base64Json(wrapped);
      if (inner !== undefined) lines.push(`data: ${JSON.stringify(inner)}`);
      continue;
    }
    lines.push(`data: ${JSON.stringify(value)}`);
  }
  return lines.map((line) => `${line}\n\n`).join('');
}
