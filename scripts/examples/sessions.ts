// Builders for synthetic agent sessions and their rendering into each wire format. Shared by the example
// generator (scripts/generate-examples.ts) and the benchmark (scripts/bench.ts). Everything is synthetic.
import { rng, sentence, sourceFile, testOutput } from './synthetic-text.ts';

export interface ToolSpec { name: string; description: string; properties: Record<string, { type: string; description: string }>; required: string[] }
export interface ToolCall { id: string; name: string; args: Record<string, unknown> }
export interface Turn { text: string; calls: ToolCall[]; results: { id: string; text: string }[] }
export interface Session { task: string; turns: Turn[] }

export const TOOLS: ToolSpec[] = [
  ['read_file', 'Read a file from the repository and return its contents with line numbers.', { path: 'Repository-relative path', offset: 'First line to read', limit: 'Number of lines' }],
  ['grep_search', 'Search the repository with a regular expression and return matching lines.', { pattern: 'Regular expression', glob: 'File glob to restrict the search' }],
  ['list_dir', 'List the entries of a directory.', { path: 'Directory path' }],
  ['edit_file', 'Replace an exact string in a file with another string.', { path: 'File path', old_string: 'Exact text to replace', new_string: 'Replacement text' }],
  ['write_file', 'Create or overwrite a file with the given contents.', { path: 'File path', content: 'Full file contents' }],
  ['run_tests', 'Run the test suite, or the tests matching a filter.', { filter: 'Test name filter' }],
  ['run_command', 'Run a shell command in the repository root and return its output.', { command: 'Command line', timeout_ms: 'Timeout in milliseconds' }],
  ['git_diff', 'Show the working-tree diff against HEAD.', { path: 'Restrict the diff to this path' }],
  ['git_log', 'Show recent commits touching a path.', { path: 'Path', count: 'Number of commits' }],
  ['lint', 'Run the linter on the given files.', { paths: 'Files to lint, space separated' }],
  ['type_check', 'Run the TypeScript compiler without emitting.', { project: 'tsconfig path' }],
  ['open_issue', 'Read an issue from the tracker.', { number: 'Issue number' }],
].map(([name, description, props]) => ({
  name: name as string,
  description: description as string,
  properties: Object.fromEntries(Object.entries(props as Record<string, string>).map(([k, d]) => [k, { type: k.endsWith('ms') || k === 'count' || k === 'offset' || k === 'limit' ? 'integer' : 'string', description: d }])),
  required: [Object.keys(props as object)[0]!],
}));

const FILES = ['src/shipment/tracker.ts', 'src/carrier/rates.ts', 'src/route/planner.ts', 'src/invoice/ledger.ts',
  'src/depot/schedule.ts', 'src/customs/holds.ts', 'src/scan/ingest.ts', 'src/label/printer.ts'];

/** A coding-agent session: reads files, edits, runs tests; `rereadEvery` makes it read the same file again. */
export function agentSession(seed: number, turns: number, fileLines: [number, number], rereadFile?: string): Session {
  const r = rng(seed);
  const session: Session = { task: `${sentence(r, 12)} The shipment tracker double-counts scans after a carrier handoff; find out why and fix it with a test. (synthetic example task)`, turns: [] };
  for (let t = 0; t < turns; t++) {
    const id = `toolu_${seed.toString(36)}${t.toString().padStart(3, '0')}`;
    const kind = rereadFile && t % 3 === 1 ? 'reread' : t % 4 === 3 ? 'tests' : t % 4 === 2 ? 'edit' : 'read';
    let call: ToolCall;
    let result: string;
    if (kind === 'reread') {
      call = { id, name: 'read_file', args: { path: rereadFile } };
      result = sourceFile(rng(999), rereadFile!, fileLines[1]);
    } else if (kind === 'read') {
      const path = r.pick(FILES);
      call = { id, name: 'read_file', args: { path } };
      result = sourceFile(r, path, r.int(fileLines[0], fileLines[1]));
    } else if (kind === 'edit') {
      const path = r.pick(FILES);
      call = { id, name: 'edit_file', args: { path, old_string: `return { ok: true, value: ${r.pick(['scan', 'route'])} };`, new_string: `return { ok: true, value: dedupe(scan) };` } };
      result = `Edited ${path}: 1 replacement.`;
    } else {
      call = { id, name: 'run_tests', args: { filter: 'tracker' } };
      result = testOutput(r, t < turns - 2 ? r.int(1, 3) : 0);
    }
    session.turns.push({ text: `${sentence(r, r.int(8, 30))} ${sentence(r, r.int(6, 20))}`, calls: [call], results: [{ id, text: result }] });
  }
  return session;
}

// ---- Anthropic Messages rendering -------------------------------------------------------------------------
export type Json = Record<string, unknown>;
const anthropicTools = (tools: ToolSpec[]) => tools.map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object', properties: t.properties, required: t.required } }));

function anthropicMessages(session: Session, upTo: number): Json[] {
  const messages: Json[] = [{ role: 'user', content: session.task }];
  for (const turn of session.turns.slice(0, upTo)) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.text }, ...turn.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args }))] });
    messages.push({ role: 'user', content: turn.results.map((res) => ({ type: 'tool_result', tool_use_id: res.id, content: res.text })) });
  }
  return messages;
}

function withTailBreakpoint(messages: Json[]): Json[] {
  const last = messages[messages.length - 1]!;
  const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...(last.content as Json[])];
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: { type: 'ephemeral' } };
  return [...messages.slice(0, -1), { ...last, content: blocks }];
}

export interface AnthropicOptions { model: string; system: string; volatileClock?: (turn: number) => string; tailBreakpoint: boolean; tools?: ToolSpec[] }

export function anthropicRequests(session: Session, o: AnthropicOptions): Json[] {
  const requests: Json[] = [];
  for (let k = 0; k <= session.turns.length - 1; k++) {
    const system = o.volatileClock ? `${o.system}\n\nCurrent time: ${o.volatileClock(k)}` : o.system;
    const messages = anthropicMessages(session, k);
    requests.push({
      model: o.model,
      max_tokens: 8192,
      system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
      tools: anthropicTools(o.tools ?? TOOLS),
      messages: o.tailBreakpoint ? withTailBreakpoint(messages) : messages,
    });
  }
  return requests;
}

export const clock = (start: string, stepSeconds: number) => (k: number) => new Date(Date.parse(start) + k * stepSeconds * 1000).toISOString();

// ---- OpenAI Chat Completions rendering --------------------------------------------------------------------
const chatTools = (tools: ToolSpec[]) => tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: { type: 'object', properties: t.properties, required: t.required } } }));

export function chatRequests(session: Session, model: string, system: string, toolsFor: (k: number) => ToolSpec[]): Json[] {
  const requests: Json[] = [];
  for (let k = 0; k < session.turns.length; k++) {
    const messages: Json[] = [{ role: 'system', content: system }, { role: 'user', content: session.task }];
    for (const turn of session.turns.slice(0, k)) {
      messages.push({ role: 'assistant', content: turn.text, tool_calls: turn.calls.map((c) => ({ id: c.id.replace('toolu_', 'call_'), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) });
      for (const res of turn.results) messages.push({ role: 'tool', tool_call_id: res.id.replace('toolu_', 'call_'), content: res.text });
    }
    requests.push({ model, messages, tools: chatTools(toolsFor(k)), tool_choice: 'auto' });
  }
  return requests;
}

// ---- OpenAI Responses rendering ---------------------------------------------------------------------------
export function responsesRequests(session: Session, model: string, instructions: string): Json[] {
  const r = rng(77);
  const requests: Json[] = [];
  const tools = TOOLS.slice(0, 8).map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: { type: 'object', properties: t.properties, required: t.required }, strict: false }));
  // One opaque reasoning blob per turn, resent unchanged in every later request.
  const reasoning = session.turns.map(() => `gAAAAB${Array.from({ length: 40 }, () => r.pick(['Qx', 'f9', 'Lm', 'Z0', 'pA', 'e3'])).join('')}`);
  for (let k = 0; k < session.turns.length; k++) {
    const input: Json[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: session.task }] }];
    session.turns.slice(0, k).forEach((turn, i) => {
      input.push({ type: 'reasoning', id: `rs_synthetic_${i}`, summary: [], encrypted_content: reasoning[i] });
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.text }] });
      for (const c of turn.calls) input.push({ type: 'function_call', call_id: c.id.replace('toolu_', 'call_'), name: c.name, arguments: JSON.stringify(c.args) });
      for (const res of turn.results) input.push({ type: 'function_call_output', call_id: res.id.replace('toolu_', 'call_'), output: res.text });
    });
    requests.push({ model, instructions, input, tools, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium' } });
  }
  return requests;
}

