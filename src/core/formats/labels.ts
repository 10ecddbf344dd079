// What a file was read as, in words every view shows (terminal, HTML report, app header): the agent whose
// transcript it is, or the wire format of its request bodies. The importer ids stay in the machine-readable records.
import { AGENTS, type AgentId } from '../agents/locations.ts';
import type { WireFormat } from '../model.ts';

export const WIRE_FORMAT_LABELS: Record<WireFormat, string> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
};

/** Transcript importers by the agent that writes them. */
export const TRANSCRIPT_LABELS: Record<string, string> = {
  'pi-session': 'pi session',
  'claude-code': 'Claude Code transcript',
  'codex-rollout': 'Codex rollout',
  'gemini-cli': 'Gemini CLI session',
  'cline-task': 'Cline task',
  'opencode-storage': 'opencode storage',
  har: 'HAR capture',
  'vcr-cassette': 'VCR cassette',
  nock: 'nock recording',
  'otel-spans': 'OpenTelemetry spans',
  'litellm-log': 'LiteLLM log',
  'langfuse-observations': 'Langfuse export',
};

/** The agent whose transcript each importer reads (Cline's task folders also hold Roo's and Kilo's). */
const AGENT_OF_FORMAT: Record<string, AgentId> = {
  'pi-session': 'pi',
  'claude-code': 'claude-code',
  'codex-rollout': 'codex',
  'gemini-cli': 'gemini-cli',
  'cline-task': 'cline',
  'opencode-storage': 'opencode',
};

/** The agent alone, for a column of agents ("Claude Code", "Codex"); any other format by its label. */
export function agentLabel(format: string | null): string {
  const agent = format === null ? undefined : AGENT_OF_FORMAT[format];
  return AGENTS.find((info) => info.id === agent)?.name ?? formatLabel(format);
}

/** "Gemini CLI session", "OpenAI Chat Completions", or the id itself for one this table does not name. */
export function formatLabel(format: string | null): string {
  if (format === null) return 'unreadable';
  if (format === 'mixed') return 'mixed formats';
  return TRANSCRIPT_LABELS[format] ?? WIRE_FORMAT_LABELS[format as WireFormat] ?? format;
}

/** The agents or formats of a set of files, each once, in first-seen order: "Cline task", "pi session, Codex rollout". */
export function readAsText(files: readonly { format: string | null }[]): string {
  const labels = [...new Set(files.filter((file) => file.format !== null).map((file) => formatLabel(file.format)))];
  return labels.length > 0 ? labels.join(', ') : 'no format';
}
