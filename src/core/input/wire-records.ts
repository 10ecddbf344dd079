// The records of a request log (one file): the envelope all of them share or not, the wire format settled by the
// first body that tells it (ambiguous ones wait, a few), then each body through its wire importer.
import type { ParsedRequest, WireFormat } from '../model.ts';
import { detectWireFormat } from '../formats/detect.ts';
import { TRANSCRIPT_IMPORTERS } from '../formats/registry.ts';
import { WIRE_IMPORTERS } from '../formats/wire.ts';
import { batchOutputCall, batchOutputUsage, classifyRecord, isOutputKind, unwrapRecord, type EnvelopeKind } from './envelope.ts';
import { isObject } from './json-value.ts';
import type { ReadState } from './read-state.ts';
import { describeShape } from './shape.ts';
import { recordedUsage } from './usage.ts';
import { checkedRecordedUsage } from './usage-check.ts';

/** How many ambiguous bodies wait for a body that settles the file's format before a weak guess is used. */
const MAX_UNDECIDED_BODIES = 64;

/** One file's request-log records, taken in order; errors go to the file's reader. */
export class WireRecords {
  /** Envelope of the first classified record; `mixed` once another kind is seen. */
  private envelope: EnvelopeKind | null = null;
  private mixed = false;
  private format: WireFormat | null = null;
  private readonly formats = new Set<WireFormat>();
  private undecided: { line: number; record: unknown; kind: EnvelopeKind }[] = [];
  private readonly requestsBefore: number;
  private readonly outputsBefore: number;

  constructor(
    private readonly state: ReadState,
    private readonly file: number,
    private readonly error: (line: number, message: string) => void,
  ) {
    this.requestsBefore = state.requests.length;
    this.outputsBefore = state.outputs.length;
  }

  /** The file's format and envelope for its summary: 'mixed' where its records disagree. */
  summary(): { format: WireFormat | 'mixed' | null; envelope: string } {
    const format = this.formats.size > 1 ? 'mixed' : ([...this.formats][0] ?? null);
    return { format, envelope: this.mixed ? 'mixed' : (this.envelope ?? 'none') };
  }

  /** One record of a request log: envelope consensus, then format, then the wire importer. */
  record(line: number, record: unknown): void {
    if (!isObject(record)) {
      this.error(line, `record is a JSON ${Array.isArray(record) ? 'array' : record === null ? 'null' : typeof record}, not an object`);
      return;
    }
    const kind = classifyRecord(record);
    if (this.envelope === null) this.envelope = kind;
    else if (!this.mixed && kind !== this.envelope) this.becomeMixed();
    if (this.mixed && kind !== 'none') {
      this.error(line, envelopeMismatch(kind));
      return;
    }
    if (isOutputKind(kind)) {
      const unwrapped = unwrapRecord(record, kind, this.state.limits.maxNestingDepth);
      if (unwrapped.customId !== null) {
        const usage = batchOutputUsage(record, kind, this.state.limits.maxNestingDepth);
        this.state.outputs.push({ file: this.file, line, customId: unwrapped.customId, usage, ...batchOutputCall(record, kind) });
      }
      return;
    }
    this.undecided.push({ line, record, kind });
    const forced = this.state.options.format;
    if (this.format !== null || (forced !== undefined && forced !== 'auto')) {
      this.flush();
      return;
    }
    // Look for a body that settles the format; until then ambiguous bodies wait (a few, bounded).
    const last = this.undecided[this.undecided.length - 1]!;
    const body = unwrapRecord(last.record, last.kind, this.state.limits.maxNestingDepth);
    const detection = body.formatHint ? { format: body.formatHint, strong: true } : detectWireFormat(body.body);
    if (detection?.strong) this.format = detection.format;
    if (this.format !== null || this.undecided.length >= MAX_UNDECIDED_BODIES) this.flush();
  }

  /**
   * A record's envelope differs from the file's first one: nothing in this file is unwrapped after all. Requests
   * and batch outputs already taken out of envelopes become errors; bare bodies stay.
   */
  private becomeMixed(): void {
    this.mixed = true;
    const first = this.envelope!;
    if (first === 'none') return;
    const dropped = this.state.requests.splice(this.requestsBefore);
    for (const request of dropped) this.error(request.line, envelopeMismatch(first));
    const droppedOutputs = this.state.outputs.splice(this.outputsBefore);
    for (const output of droppedOutputs) this.error(output.line, envelopeMismatch(first));
    const waiting = this.undecided.splice(0);
    for (const held of waiting) this.error(held.line, envelopeMismatch(first));
  }

  /** Import the bodies that were waiting for the file's format (settled now, or at the end of the file). */
  flush(): void {
    const waiting = this.undecided.splice(0);
    for (const held of waiting) this.importBody(held.line, held.record, held.kind);
  }

  private importBody(line: number, record: unknown, kind: EnvelopeKind): void {
    const unwrapped = unwrapRecord(record, kind, this.state.limits.maxNestingDepth);
    if (unwrapped.error !== null) {
      this.error(line, unwrapped.error);
      return;
    }
    const body = unwrapped.body;
    if (!isObject(body)) {
      this.error(line, `the request body is ${body === null || body === undefined ? 'missing' : `a JSON ${Array.isArray(body) ? 'array' : typeof body}`}`);
      return;
    }
    const forced = this.state.options.format;
    let format: WireFormat | null;
    if (forced !== undefined && forced !== 'auto') format = forced;
    else if (unwrapped.formatHint !== null) format = unwrapped.formatHint;
    else {
      const detection = detectWireFormat(body);
      format = detection === null ? this.format : detection.strong ? detection.format : (this.format ?? detection.format);
    }
    if (format === null) {
      this.error(line, `not a request body: no \`messages\` (Anthropic Messages, Chat Completions) or \`input\`/\`instructions\` (Responses); it looks like ${describeShape(body)}; formats tried: ${this.formatsTried()}`);
      return;
    }
    let request: ParsedRequest;
    try {
      request = WIRE_IMPORTERS[format](body, { store: this.state.store, file: this.file, line, index: this.state.requests.length });
    } catch (error) {
      // Importers guard every field they read; this keeps one unforeseen body from ending the whole read.
      const what = error instanceof Error ? error.name : 'error';
      this.error(line, `could not import this ${format} body (${what})`);
      return;
    }
    if (readsAsNothing(request)) {
      // Fail loud: a body whose every message is of an unknown shape is some other file, not a request.
      this.error(line, `not read: this record matches no format well (none of its ${request.messageCount} messages has a role or type a request format has); it looks like ${describeShape(body)}; formats tried: ${this.formatsTried()}`);
      return;
    }
    this.formats.add(format);
    request.customId = unwrapped.customId;
    if (kind === 'anthropic-batch' || kind === 'openai-batch') request.batch = true;
    request.timestamp = unwrapped.timestamp;
    if (unwrapped.usage !== null) request.recorded = checkedRecordedUsage(request, unwrapped.usage, (usage) => recordedUsage(usage, format));
    this.state.budget.addRequest(request);
    this.state.requests.push(request);
  }

  /** Every importer the reader could have used for this file, for the errors that refuse a record. */
  private formatsTried(): string {
    const transcripts = (this.state.options.transcriptImporters ?? TRANSCRIPT_IMPORTERS).map((importer) => importer.id);
    return [...Object.keys(WIRE_IMPORTERS), ...transcripts].join(', ');
  }
}

/**
 * A body that imported to nothing recognisable: it has messages, yet no segment is a message of any kind and most
 * are unknown shapes (another tool's file with a `messages` key, e.g. a Gemini CLI chat read as Chat Completions).
 */
function readsAsNothing(request: ParsedRequest): boolean {
  if (request.messageCount === 0 || request.segments.some((segment) => segment.category !== 'other')) return false;
  // Unknown whole messages (an unknown role or item), not unknown blocks inside known messages.
  const unknownMessages = request.unknownShapes.filter((shape) => /^(?:messages|input)\[\d+\]$/.test(shape.path)).length;
  return unknownMessages * 2 > request.messageCount;
}

function envelopeMismatch(kind: EnvelopeKind): string {
  return `record has the ${kind} envelope but other records of this file do not; envelopes are unwrapped only when every record shares one`;
}
