// The parsed arguments of `ctxray analyze`, apart from the command so the file and folder runners share them
// without importing each other.
import type { Severity } from '../../core/cache/index.ts';
import type { InputLimits } from '../../core/input/index.ts';
import type { WireFormat } from '../../core/model.ts';
import type { PriceOverrides } from '../../core/pricing/overrides.ts';
import type { AgentId } from '../../core/agents/locations.ts';
import type { Grouping } from '../../core/period/index.ts';

export interface AnalyzePeriod {
  since: number | null;
  until: number | null;
  zone: string;
  by: Grouping | null;
}

/** The zone `--tz` defaults to: this machine's. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The window and grouping asked for, or the whole input in the local zone (set only when a flag was given). */
export const periodOf = (args: Pick<AnalyzeArgs, 'period'>): AnalyzePeriod => args.period ?? { since: null, until: null, zone: localZone(), by: null };

export interface AnalyzeArgs {
  inputs: string[];
  format: WireFormat | 'auto';
  model: string | null;
  json: string | null;
  force: boolean;
  verbose: boolean;
  help: boolean;
  /** Set only when --calibrate is given. */
  calibrate?: boolean;
  /** False with --no-usage-calibration: Claude estimates are not rescaled on the log's own recorded usage. */
  usageCalibration?: boolean;
  /** --fail-on: the least severe finding that makes the exit status 2. */
  failOn?: Severity;
  /** --html: where to write the self-contained report. */
  html?: string;
  /** --content: payload-derived labels in the human reports. */
  content?: boolean;
  /** Files found in folder inputs, filled when they are opened: outputs may not overwrite them either. */
  folderFiles?: string[];
  /** Work limits raised with --max-records and the like. */
  limits?: Partial<InputLimits>;
  /** --agent: with no path, only this agent's default folders. */
  agent?: AgentId;
  /** --prices: the file named, and its rates once loaded and validated. */
  prices?: string;
  priceOverrides?: PriceOverrides;
  /** --since / --until (ms; a bare --until date includes that day), --tz (IANA; the local zone by default), --by. */
  period?: AnalyzePeriod;
  /** --deep: each session's full analysis (findings, miss causes, token categories), as --json and --fail-on need. */
  deep?: boolean;
  /** --jobs N: worker threads for the sessions' full analyses (default: one per available core). */
  jobs?: number;
}
