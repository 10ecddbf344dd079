// Tool identity: which category a result belongs to, which names are excluded from both bounds, and whether a
// result's read-only identity is proven (agent-config attestation or app allowlist with captured MCP origin).

import type { ResultCategory } from './codes.ts';
import type { AgentConfig, AllowlistEntry, Inventory } from './inputs.ts';
import type { McpOrigin } from './journal/replay.ts';

/** pi's read-only built-in tools: the only names an attestation can prove. */
export const READ_ONLY_BUILTINS: ReadonlySet<string> = new Set(['read', 'grep', 'find', 'ls']);
/** pi's effectful built-ins: never cleared, proof or not. */
export const EFFECTFUL_BUILTINS: ReadonlySet<string> = new Set(['bash', 'edit', 'write']);
/**
 * Names whose results carry instructions or conversation history (skills, plans, memory, the retrieval tool
 * itself): clearing them would change what the agent was told, so they are excluded from both bounds.
 */
export const INSTRUCTION_HISTORY_NAMES: ReadonlySet<string> = new Set([
  'skill',
  'read_skill',
  'todo_read',
  'todo_write',
  'memory',
  'recall',
  'retrieve_tool_result',
]);
const WEB_NAME = /web|fetch|search|brows|http|url/i;

export function isExcludedName(toolName: string): boolean {
  return EFFECTFUL_BUILTINS.has(toolName) || INSTRUCTION_HISTORY_NAMES.has(toolName);
}

export function categoryOf(toolName: string, origin: McpOrigin | null): ResultCategory {
  if (READ_ONLY_BUILTINS.has(toolName)) return 'file_read';
  if (EFFECTFUL_BUILTINS.has(toolName)) return 'effectful';
  if (INSTRUCTION_HISTORY_NAMES.has(toolName)) return 'instruction_history';
  if (WEB_NAME.test(toolName)) return 'web';
  if (origin !== null) return 'mcp';
  return 'other';
}

function inventoryProves(inventory: Inventory | undefined, toolName: string): boolean {
  if (inventory === undefined || inventory.mcpExposed === null) return false; // missing inventory is not proof
  return (
    inventory.builtins.has(toolName) && READ_ONLY_BUILTINS.has(toolName) && !inventory.mcpExposed.has(toolName)
  );
}

/**
 * Whether every tool name called in a run is covered by its attested inventory. A call outside the inventory
 * shows the configuration changed within the period, which invalidates the attestation for that run.
 */
export function inventoryCovers(inventory: Inventory | undefined, calledNames: Iterable<string>): boolean {
  if (inventory === undefined || inventory.mcpExposed === null) return false;
  for (const name of calledNames) {
    if (!inventory.builtins.has(name) && !inventory.mcpExposed.has(name)) return false;
  }
  return true;
}

export function inventoryFor(config: AgentConfig | null, runId: string | null): Inventory | undefined {
  if (config === null) return undefined;
  if (config.kind === 'period') return config.inventory;
  return runId === null ? undefined : config.byRun.get(runId);
}

export interface IdentityContext {
  config: AgentConfig | null;
  allowlist: AllowlistEntry[];
  /** Runs whose attestation is contradicted by a call outside its inventory. */
  contradictedRuns: ReadonlySet<string>;
  /** True when a period attestation is contradicted anywhere in the period. */
  periodContradicted: boolean;
}

/** Proven read-only identity: an uncontradicted attestation of a read-only built-in, or an allowlisted origin. */
export function identityProven(
  context: IdentityContext,
  toolName: string,
  runId: string | null,
  origin: McpOrigin | null,
): boolean {
  if (origin !== null) {
    // Captured MCP provenance: only an exact reviewed declaration with read-only, non-destructive hints proves it.
    return (
      origin.tool === toolName &&
      origin.readOnlyHint &&
      !origin.destructiveHint &&
      context.allowlist.some(
        (entry) =>
          entry.server === origin.server &&
          entry.tool === origin.tool &&
          entry.serverIdentityDigest === origin.serverIdentityDigest,
      )
    );
  }
  if (context.config === null) return false;
  if (context.config.kind === 'period' && context.periodContradicted) return false;
  if (context.config.kind === 'per_run' && (runId === null || context.contradictedRuns.has(runId))) return false;
  return inventoryProves(inventoryFor(context.config, runId), toolName);
}
